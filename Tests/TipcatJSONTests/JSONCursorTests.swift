import Testing
import TipcatCore
@testable import TipcatJSON

/// `JSONCursor` reads a deferred value in place: keys compared as bytes, strings as the parser reads them, `true`
/// and `false`; anything else is `.other` or nil, and `withCursor` gives a result only when the value was read to
/// its end.
@Suite struct JSONCursorTests {
    static let text = #"{"strings": {"a": {"k" : "v", "b": true, "c":false , "d": "e\u0301 \"q\""}, "b": {"k\u0041": 1}, "c": {"k": "v",}, "d": {"k": tru}, "e": {}}}"#

    static func values() throws -> (JSONDocument, [String: JSONNode]) {
        let document = try JSONDocument.parse(SourceFile(path: "cursor.json", text: text), deferringMembersOf: "strings")
        let strings = try #require(document.root.value.objectValue?["strings"]?.value.objectValue)
        return (document, Dictionary(strings.members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }))
    }

    @Test func readsKeysStringsAndBooleansInPlace() throws {
        let (document, values) = try Self.values()
        let read = document.withCursor(atDeferred: try #require(values["a"])) { cursor -> [String]? in
            guard cursor.enterObject() else { return nil }
            var seen: [String] = []
            while case .key(let key) = cursor.nextMember() {
                if cursor.key(key, is: "k"), let (text, offset, verbatim) = cursor.string() {
                    #expect(offset == Array(Self.text.utf8).firstIndex(of: UInt8(ascii: "v")).map { $0 - 1 })
                    seen.append("k=\(text) \(verbatim)")
                } else if cursor.key(key, is: "d"), let (text, _, verbatim) = cursor.string() {
                    seen.append("d=\(text) \(verbatim)")
                } else if let value = cursor.bool() {
                    seen.append("\(cursor.text(of: key))=\(value)")
                } else {
                    return nil
                }
            }
            return seen
        }
        #expect(read == ["k=v true", "b=true", "c=false", "d=e\u{301} \"q\" false"])
        // Keys compare by their bytes, to names and to each other.
        let compared = document.withCursor(atDeferred: try #require(values["a"])) { cursor -> [Bool]? in
            guard cursor.enterObject(), case .key(let k) = cursor.nextMember(), cursor.string() != nil,
                  case .key(let b) = cursor.nextMember(), cursor.bool() != nil, case .key(let c) = cursor.nextMember(), cursor.bool() != nil,
                  case .key = cursor.nextMember(), cursor.string() != nil, case .end = cursor.nextMember() else { return nil }
            return [cursor.key(k, equals: k), cursor.key(k, equals: b), cursor.key(b, equals: c), cursor.key(b, is: "b"), cursor.key(b, is: "bb"),
                    cursor.key(k, is: "")]
        }
        #expect(compared == [true, false, false, true, false, false])
        // Stopped short of the value's end: nil, whatever the body returned.
        #expect(document.withCursor(atDeferred: try #require(values["a"])) { cursor in cursor.enterObject() } == nil)
        #expect(document.withCursor(atDeferred: try #require(values["e"])) { cursor -> Bool? in
            cursor.enterObject() && { if case .end = cursor.nextMember() { true } else { false } }()
        } == true)
    }

    @Test func anythingElseIsOtherOrNil() throws {
        let (document, values) = try Self.values()
        // What the first member reads as (the value is never read to its end here, so `withCursor` gives nil).
        func firstMember(_ name: String) throws -> String {
            var seen = ""
            let result = document.withCursor(atDeferred: try #require(values[name])) { cursor -> Bool? in
                guard cursor.enterObject() else { return nil }
                switch cursor.nextMember() {
                case .key: seen = cursor.string() == nil && cursor.bool() == nil ? "neither string nor bool" : "value"
                case .end: seen = "end"
                case .other: seen = "other"
                }
                return true
            }
            #expect(result == nil, "\(name)")
            return seen
        }
        #expect(try firstMember("b") == "other")  // an escaped key
        #expect(try firstMember("d") == "neither string nor bool")  // `tru`
        // A trailing comma: the next member is `.other`.
        var afterComma = ""
        let trailing = document.withCursor(atDeferred: try #require(values["c"])) { cursor -> Bool? in
            guard cursor.enterObject(), case .key = cursor.nextMember(), cursor.string() != nil else { return nil }
            if case .other = cursor.nextMember() { afterComma = "other" }
            return true
        }
        #expect(afterComma == "other" && trailing == nil)  // the cursor short of the value's end
        // Not a placeholder: nothing is read.
        #expect(document.withCursor(atDeferred: document.root) { _ in true } == nil)
    }
}
