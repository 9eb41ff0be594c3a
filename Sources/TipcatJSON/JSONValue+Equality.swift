/// Structural equality and hashing without recursion, so comparing or hashing a deeply nested tree uses
/// heap memory, not call stack. Offsets are ignored; numbers compare by all their fields (text included).
extension JSONValue {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = []
        var left = lhs
        var right = rhs
        while true {
            switch (left, right) {
            case (.null, .null):
                break
            case (.bool(let a), .bool(let b)):
                if a != b { return false }
            case (.number(let a), .number(let b)):
                if a != b { return false }
            case (.string(let a), .string(let b)):
                if a != b { return false }
            case (.array(let a), .array(let b)):
                guard a.count == b.count else { return false }
                for index in a.indices.reversed() { pending.append((a[index].value, b[index].value)) }
            case (.object(let a), .object(let b)):
                guard a.members.count == b.members.count else { return false }
                for index in a.members.indices.reversed() {
                    guard a.members[index].key == b.members[index].key else { return false }
                    pending.append((a.members[index].value.value, b.members[index].value.value))
                }
            default:
                return false
            }
            guard let next = pending.popLast() else { return true }
            (left, right) = next
        }
    }

    public func hash(into hasher: inout Hasher) {
        var pending: [JSONValue] = []
        var value = self
        while true {
            switch value {
            case .null:
                hasher.combine(0 as UInt8)
            case .bool(let flag):
                hasher.combine(1 as UInt8)
                hasher.combine(flag)
            case .number(let number):
                hasher.combine(2 as UInt8)
                hasher.combine(number)
            case .string(let text):
                hasher.combine(3 as UInt8)
                hasher.combine(text)
            case .array(let elements):
                hasher.combine(4 as UInt8)
                hasher.combine(elements.count)
                for element in elements.reversed() { pending.append(element.value) }
            case .object(let object):
                hasher.combine(5 as UInt8)
                hasher.combine(object.members.count)
                for member in object.members.reversed() {
                    hasher.combine(member.key)
                    pending.append(member.value.value)
                }
            }
            guard let next = pending.popLast() else { return }
            value = next
        }
    }
}
