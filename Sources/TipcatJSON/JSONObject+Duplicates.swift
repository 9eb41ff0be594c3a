extension JSONObject {
    /// Every member whose key an earlier member of this object already has, with that first member, in source
    /// order. Linear: small objects are scanned, larger ones hashed (a String Catalog's dozen locales are
    /// compared faster than they are hashed into a new dictionary).
    public func duplicateKeys() -> [(first: JSONMember, duplicate: JSONMember)] {
        guard members.count > 1 else { return [] }
        var found: [(first: JSONMember, duplicate: JSONMember)] = []
        if members.count <= 24 {
            for index in 1..<members.count {
                let member = members[index]
                if let first = members[..<index].first(where: { $0.key == member.key }) { found.append((first, member)) }
            }
            return found
        }
        var firstIndex: [String: Int] = [:]
        firstIndex.reserveCapacity(members.count)
        for (index, member) in members.enumerated() {
            if let first = firstIndex[member.key] {
                found.append((members[first], member))
            } else {
                firstIndex[member.key] = index
            }
        }
        return found
    }
}

extension JSONDocument {
    /// The duplicate keys of every object in the document (nested ones included), in source order of the
    /// duplicates: found by the parser as it closed each object.
    public func duplicateKeys() -> [(first: JSONMember, duplicate: JSONMember)] { duplicates }
}
