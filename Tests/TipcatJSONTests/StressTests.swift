import Foundation
import Testing
import TipcatCore
import TipcatJSON

@Suite struct StressTests {
    @Test func hundredThousandDeepNestingIsAnErrorNotACrash() {
        let depth = 100_000
        let arrays = [UInt8](repeating: UInt8(ascii: "["), count: depth) + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
        #expect(syntaxError(arrays) == JSONSyntaxError("nesting deeper than 512 levels", at: 512))
        let unclosed = [UInt8](repeating: UInt8(ascii: "["), count: depth)
        #expect(syntaxError(unclosed)?.message == "nesting deeper than 512 levels")
        var objects: [UInt8] = []
        for _ in 0..<depth { objects += Array(#"{"k":"#.utf8) }
        #expect(syntaxError(objects)?.offset == 512 * 5)
        // Even when asking for more, the limit is clamped, so the tree stays safe to drop.
        #expect(syntaxError(arrays, maxDepth: 1_000_000)?.message == "nesting deeper than \(JSONDocument.depthLimit) levels")
    }

    @Test func deepTreesAtTheLimitParseCompareAndDeallocate() throws {
        for (depth, maxDepth) in [(512, 512), (JSONDocument.depthLimit, JSONDocument.depthLimit)] {
            // Containers alternate {"a": ...} and [...], `depth` of them, around the number 1.
            var bytes = [UInt8]()
            for level in 0..<depth { bytes += level % 2 == 0 ? Array(#"{"a":"#.utf8) : [UInt8(ascii: "[")] }
            bytes.append(UInt8(ascii: "1"))
            for level in (0..<depth).reversed() { bytes.append(level % 2 == 0 ? UInt8(ascii: "}") : UInt8(ascii: "]")) }
            var document: JSONDocument? = try parseBytes(bytes, maxDepth: maxDepth)
            // Walk to the bottom without recursion to check the shape.
            var node = try #require(document?.root)
            var levels = 1
            while true {
                if let next = node.value.objectValue?["a"] { node = next } else if let next = node.value.arrayValue?.first { node = next } else { break }
                levels += 1
            }
            #expect(levels == depth + 1)
            #expect(node.value == 1)
            let copy = try parseBytes(bytes, maxDepth: maxDepth)
            #expect(copy.root == document?.root)
            #expect(copy.root.hashValue == document?.root.hashValue)
            #expect(copy.root.value.serialized().utf8.count == bytes.count)
            document = nil  // deallocating the deep tree must not overflow the stack
            _ = document
        }
    }

    /// A 50 MiB string parses (its speed is measured by `make bench`, not here).
    @Test func fiftyMegabyteString() throws {
        let size = 50 * 1024 * 1024
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: size + 2)
        bytes[0] = UInt8(ascii: "\"")
        bytes[size + 1] = UInt8(ascii: "\"")
        // Sprinkle non-ASCII text so the UTF-8 path runs too, at fixed places (é = C3 A9).
        for position in stride(from: 1_000, to: size - 2, by: 1_000_000) {
            bytes[position] = 0xC3
            bytes[position + 1] = 0xA9
        }
        let document = try parseBytes(bytes)
        let text = try #require(document.root.value.stringValue)
        #expect(text.utf8.count == size)

        // With an escape early on, the whole string goes through the decoding path.
        bytes[10] = UInt8(ascii: "\\")
        bytes[11] = UInt8(ascii: "n")
        let escaped = try parseBytes(bytes)
        #expect(escaped.root.value.stringValue?.utf8.count == size - 1)
    }

    @Test func randomBytesAndMutationsNeverCrash() {
        var generator = SeededGenerator(seed: 0x7195_CA7)
        let seeds = [
            #"{"id": "NewTrailTip", "title": "Découvrez {trail.region}", "n": [1, -2.5e3, true, null], "o": {}}"#,
            #"[{"a": "\u00e9\ud83d\ude00\n"}, 0, [], [[]], "x"]"#,
            #"{"strings": {"k": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "é"}}}}}}"#,
        ].map { Array($0.utf8) }
        let alphabet = Array(#"{}[]:,"\\/ -+.0123456789eEtrufalsn"#.utf8) + [0x00, 0x0A, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF]
        var parsed = 0
        var rejected = 0
        for round in 0..<2_000 {
            var input: [UInt8]
            if round % 4 == 0 {
                // Pure noise from a JSON-flavoured alphabet.
                let length = Int.random(in: 0...40, using: &generator)
                input = (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            } else {
                // A valid document with a few point mutations.
                input = seeds[round % seeds.count]
                for _ in 0..<Int.random(in: 1...4, using: &generator) where !input.isEmpty {
                    let position = Int.random(in: 0..<input.count, using: &generator)
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: input[position] = UInt8.random(in: 0...255, using: &generator)
                    case 1: input.remove(at: position)
                    case 2: input.insert(alphabet.randomElement(using: &generator) ?? 0, at: position)
                    default: input.removeSubrange(position...)
                    }
                }
            }
            do {
                let document = try parseBytes(input)
                // Whatever parses must survive a write/read round trip.
                let again = try parse(document.root.value.serialized())
                #expect(again.root == document.root)
                parsed += 1
            } catch {
                #expect(error.offset >= 0 && error.offset <= input.count)
                #expect(!error.message.isEmpty)
                rejected += 1
            }
        }
        #expect(parsed + rejected == 2_000)
        #expect(parsed > 10 && rejected > 1_000)
    }
}
