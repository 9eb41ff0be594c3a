public import TipcatCore

/// Compiled programs as bytes, so a prepared catalog can keep them and a later process evaluate them without
/// checking and compiling the rules again.
///
/// Every number read back is checked before use: node, child, comparison, chain, step and string indices must
/// fall inside their table, a node may only name nodes compiled before it (so evaluation always ends), nesting
/// is bounded, and each chain's fields must exist in its event. Bytes that fail any check are refused with
/// `DecodingError`; decoding never traps, whatever the bytes.
extension RuleProgram {
    /// The encoding's version; raised whenever the encoding or what the compiler produces changes, so programs
    /// written by another compiler are refused (and recompiled by the caller).
    public static let encodingVersion: UInt32 = 1

    /// Why bytes were refused.
    public typealias DecodingError = BinaryDecodingError

    static let encodingMagic: [UInt8] = Array("TCRP".utf8)
    /// The deepest node nesting accepted: twice what the parser accepts.
    static let maximumNodeDepth = RuleParser.maximumDepth * 2

    /// The programs as bytes: their tables joined into one (each table once, however many programs share it,
    /// so a reader makes one table whatever the number of tables compiled), then each program's table and root.
    public static func encode(_ programs: [RuleProgram]) -> [UInt8] {
        var writer = BinaryWriter()
        writer.bytes = encodingMagic
        writer.varint(UInt64(encodingVersion))
        var nodeOffsets: [ObjectIdentifier: Int] = [:]
        var joined = Builder()
        for program in programs where nodeOffsets[ObjectIdentifier(program.table)] == nil {
            nodeOffsets[ObjectIdentifier(program.table)] = joined.append(program.table)
        }
        writer.count(programs.isEmpty ? 0 : 1)
        if !programs.isEmpty { writer.table(Table(joined)) }
        writer.count(programs.count)
        for program in programs {
            writer.count(0)
            writer.count(program.root + (nodeOffsets[ObjectIdentifier(program.table)] ?? 0))
        }
        return writer.bytes
    }

    /// The programs `encode` wrote, checked whole.
    ///
    /// - Parameter eventFieldCounts: the number of fields of each event slot (the columns of `Inputs.logs`);
    ///   a chain must name an event slot among these and fields it has.
    public static func decode(_ bytes: [UInt8], eventFieldCounts: [Int]) throws(DecodingError) -> [RuleProgram] {
        var reader = BinaryReader(bytes: bytes)
        guard bytes.count >= encodingMagic.count, Array(bytes[0..<encodingMagic.count]) == encodingMagic else {
            throw DecodingError("not compiled rules")
        }
        reader.position = encodingMagic.count
        guard try reader.varint() == UInt64(encodingVersion) else { throw DecodingError("compiled by another version") }
        var tables: [Table] = []
        for _ in 0..<(try reader.count()) {
            let table = try reader.table()
            try table.validate(eventFieldCounts: eventFieldCounts)
            tables.append(table)
        }
        var programs: [RuleProgram] = []
        let programCount = try reader.count()
        programs.reserveCapacity(programCount)
        for _ in 0..<programCount {
            let number = try reader.index()
            let root = try reader.index()
            guard number < tables.count, root < tables[number].nodes.count else { throw DecodingError("a program out of its table") }
            programs.append(RuleProgram(table: tables[number], root: root))
        }
        guard reader.position == bytes.count else { throw DecodingError("trailing bytes") }
        return programs
    }
}

extension RuleProgram.Builder {
    /// Appends a whole table (every index in it moved past what is here) and returns the number its node 0
    /// now has: a program of `table` with root `r` is this builder's `r` plus that.
    mutating func append(_ table: RuleProgram.Table) -> Int {
        let (nodeBase, childBase, comparisonBase) = (nodes.count, children.count, comparisons.count)
        let (chainBase, stepBase, stringBase) = (chains.count, steps.count, strings.count)
        func moved(_ range: Range<Int>, _ base: Int) -> Range<Int> { (range.lowerBound + base)..<(range.upperBound + base) }
        func moved(_ scalar: RuleProgram.Scalar) -> RuleProgram.Scalar {
            if case .string(let index) = scalar { return .string(index + stringBase) }
            return scalar
        }
        func moved(_ operand: RuleProgram.Operand) -> RuleProgram.Operand {
            switch operand {
            case .constant(let value): return .constant(moved(value))
            case .count(let chain): return .count(chain + chainBase)
            case .lastDonated(let chain): return .lastDonated(chain + chainBase)
            case .parameter, .now, .tipStatus, .tipInvalidated, .tipDisplayCount: return operand
            }
        }
        nodes += table.nodes.map { node -> RuleProgram.Node in
            switch node {
            case .and(let range): return .and(moved(range, childBase))
            case .or(let range): return .or(moved(range, childBase))
            case .not(let child): return .not(child + nodeBase)
            case .comparison(let index): return .comparison(index + comparisonBase)
            case .test(let operand): return .test(moved(operand))
            }
        }
        children += table.children.map { $0 + nodeBase }
        comparisons += table.comparisons.map {
            RuleProgram.Comparison(op: $0.op, left: moved($0.left), right: moved($0.right), shape: $0.shape)
        }
        chains += table.chains.map { RuleProgram.Chain(event: $0.event, steps: moved($0.steps, stepBase)) }
        steps += table.steps.map { step -> RuleProgram.Step in
            if case .keep(let field, let op, let constant, let fieldOnLeft) = step {
                return .keep(field: field, op: op, constant: moved(constant), fieldOnLeft: fieldOnLeft)
            }
            return step
        }
        strings += table.strings
        return nodeBase
    }
}

extension RuleProgram.Table {
    convenience init(
        nodes: [RuleProgram.Node], children: [Int], comparisons: [RuleProgram.Comparison], chains: [RuleProgram.Chain],
        steps: [RuleProgram.Step], strings: [String]
    ) {
        var builder = RuleProgram.Builder()
        builder.nodes = nodes
        builder.children = children
        builder.comparisons = comparisons
        builder.chains = chains
        builder.steps = steps
        builder.strings = strings
        self.init(builder)
    }

    /// Checks every index (see the extension's documentation).
    func validate(eventFieldCounts: [Int]) throws(RuleProgram.DecodingError) {
        typealias Failure = RuleProgram.DecodingError
        func scalar(_ scalar: RuleProgram.Scalar) throws(Failure) {
            if case .string(let index) = scalar, index >= strings.count { throw Failure("a string out of its table") }
        }
        func operand(_ operand: RuleProgram.Operand) throws(Failure) {
            switch operand {
            case .constant(let value): try scalar(value)
            case .count(let chain), .lastDonated(let chain):
                guard chain < chains.count else { throw Failure("a chain out of its table") }
            case .parameter, .now, .tipStatus, .tipInvalidated, .tipDisplayCount: break
            }
        }
        for step in steps {
            if case .keep(_, _, let constant, _) = step { try scalar(constant) }
        }
        for chain in chains {
            guard chain.steps.upperBound <= steps.count, chain.event < eventFieldCounts.count else {
                throw Failure("a chain out of its table")
            }
            let fields = eventFieldCounts[chain.event]
            for step in steps[chain.steps] {
                switch step {
                case .within: break
                case .keep(let field, _, _, _), .subset(let field, _):
                    guard field < fields else { throw Failure("a field its event does not have") }
                }
            }
        }
        for comparison in comparisons {
            try operand(comparison.left)
            try operand(comparison.right)
        }
        // Nodes name only earlier nodes, so evaluation ends; depths are bounded, so it does not run out of stack.
        var depths: [Int] = []
        depths.reserveCapacity(nodes.count)
        for (number, node) in nodes.enumerated() {
            var depth = 1
            switch node {
            case .and(let range), .or(let range):
                guard range.upperBound <= children.count else { throw Failure("children out of their table") }
                for child in children[range] {
                    guard child < number else { throw Failure("a node naming a later node") }
                    depth = max(depth, depths[child] + 1)
                }
            case .not(let child):
                guard child < number else { throw Failure("a node naming a later node") }
                depth = depths[child] + 1
            case .comparison(let index):
                guard index < comparisons.count else { throw Failure("a comparison out of its table") }
            case .test(let value):
                try operand(value)
            }
            guard depth <= RuleProgram.maximumNodeDepth else { throw Failure("nodes nested too deeply") }
            depths.append(depth)
        }
    }
}

/// A program's parts on top of the shared binary coding.
extension BinaryWriter {
    mutating func range(_ range: Range<Int>) {
        count(range.lowerBound)
        count(range.count)
    }
    mutating func byte<T: CaseIterable & Equatable>(_ value: T) {
        bytes.append(UInt8(Array(T.allCases).firstIndex(of: value) ?? 0))
    }

    mutating func scalar(_ scalar: RuleProgram.Scalar) {
        switch scalar {
        case .int(let value): bytes.append(0); int(value)
        case .double(let value): bytes.append(1); double(value)
        case .bool(let value): bytes.append(2); bool(value)
        case .string(let index): bytes.append(3); count(index)
        case .date(let value): bytes.append(4); double(value)
        case .duration(let value): bytes.append(5); double(value)
        }
    }

    mutating func operand(_ operand: RuleProgram.Operand) {
        switch operand {
        case .constant(let value): bytes.append(0); scalar(value)
        case .parameter(let slot): bytes.append(1); count(slot)
        case .now(let offset): bytes.append(2); double(offset)
        case .count(let chain): bytes.append(3); count(chain)
        case .lastDonated(let chain): bytes.append(4); count(chain)
        case .tipStatus(let slot, let status): bytes.append(5); count(slot); byte(status)
        case .tipInvalidated(let slot, let reason): bytes.append(6); count(slot); byte(reason)
        case .tipDisplayCount(let slot): bytes.append(7); count(slot)
        }
    }

    mutating func table(_ table: RuleProgram.Table) {
        count(table.nodes.count)
        for node in table.nodes {
            switch node {
            case .and(let children): bytes.append(0); range(children)
            case .or(let children): bytes.append(1); range(children)
            case .not(let child): bytes.append(2); count(child)
            case .comparison(let index): bytes.append(3); count(index)
            case .test(let value): bytes.append(4); operand(value)
            }
        }
        count(table.children.count)
        for child in table.children { count(child) }
        count(table.comparisons.count)
        for comparison in table.comparisons {
            byte(comparison.op)
            operand(comparison.left)
            operand(comparison.right)
            switch comparison.shape {
            case .none: bytes.append(0)
            case .countOnLeft: bytes.append(1)
            case .countOnRight: bytes.append(2)
            }
        }
        count(table.chains.count)
        for chain in table.chains {
            count(chain.event)
            range(chain.steps)
        }
        count(table.steps.count)
        for step in table.steps {
            switch step {
            case .within(let span): bytes.append(0); double(span)
            case .keep(let field, let op, let constant, let fieldOnLeft):
                bytes.append(1); count(field); byte(op); scalar(constant); bool(fieldOnLeft)
            case .subset(let field, let largest): bytes.append(2); count(field); bool(largest)
            }
        }
        count(table.strings.count)
        for string in table.strings {
            count(string.utf8.count)
            bytes += string.utf8
        }
    }
}

/// Reads what the `BinaryWriter` extension above wrote; anything inconsistent throws.
extension BinaryReader {
    mutating func range() throws(Failure) -> Range<Int> {
        let lower = try index()
        let count = try index()
        return lower..<(lower + count)
    }

    mutating func choice<T: CaseIterable>(_: T.Type) throws(Failure) -> T {
        let cases = T.allCases
        let number = Int(try byte())
        guard number < cases.count else { throw Failure("an unknown case") }
        return cases[cases.index(cases.startIndex, offsetBy: number)]
    }

    mutating func scalar() throws(Failure) -> RuleProgram.Scalar {
        switch try byte() {
        case 0: return .int(try int())
        case 1: return .double(try double())
        case 2: return .bool(try bool())
        case 3: return .string(try index())
        case 4: return .date(try double())
        case 5: return .duration(try double())
        default: throw Failure("an unknown constant")
        }
    }

    mutating func operand() throws(Failure) -> RuleProgram.Operand {
        switch try byte() {
        case 0: return .constant(try scalar())
        case 1: return .parameter(try index())
        case 2: return .now(offset: try double())
        case 3: return .count(try index())
        case 4: return .lastDonated(try index())
        case 5: return .tipStatus(try index(), try choice(RuleTipState.Status.self))
        case 6: return .tipInvalidated(try index(), try choice(RuleInvalidationReason.self))
        case 7: return .tipDisplayCount(try index())
        default: throw Failure("an unknown operand")
        }
    }

    mutating func table() throws(Failure) -> RuleProgram.Table {
        var nodes: [RuleProgram.Node] = []
        let nodeCount = try count()
        nodes.reserveCapacity(nodeCount)
        for _ in 0..<nodeCount {
            switch try byte() {
            case 0: nodes.append(.and(try range()))
            case 1: nodes.append(.or(try range()))
            case 2: nodes.append(.not(try index()))
            case 3: nodes.append(.comparison(try index()))
            case 4: nodes.append(.test(try operand()))
            default: throw Failure("an unknown node")
            }
        }
        var children: [Int] = []
        let childCount = try count()
        children.reserveCapacity(childCount)
        for _ in 0..<childCount { children.append(try index()) }
        var comparisons: [RuleProgram.Comparison] = []
        let comparisonCount = try count()
        comparisons.reserveCapacity(comparisonCount)
        for _ in 0..<comparisonCount {
            let op = try choice(RuleComparisonOperator.self)
            let left = try operand()
            let right = try operand()
            let shape: RuleEvaluation.ShrinkShape
            switch try byte() {
            case 0: shape = .none
            case 1: shape = .countOnLeft
            case 2: shape = .countOnRight
            default: throw Failure("an unknown shape")
            }
            comparisons.append(RuleProgram.Comparison(op: op, left: left, right: right, shape: shape))
        }
        var chains: [RuleProgram.Chain] = []
        for _ in 0..<(try count()) { chains.append(RuleProgram.Chain(event: try index(), steps: try range())) }
        var steps: [RuleProgram.Step] = []
        for _ in 0..<(try count()) {
            switch try byte() {
            case 0: steps.append(.within(try double()))
            case 1:
                steps.append(.keep(field: try index(), op: try choice(RuleComparisonOperator.self), constant: try scalar(), fieldOnLeft: try bool()))
            case 2: steps.append(.subset(field: try index(), largest: try bool()))
            default: throw Failure("an unknown step")
            }
        }
        var strings: [String] = []
        for _ in 0..<(try count()) {
            let length = try count()
            strings.append(String(decoding: bytes[position..<(position + length)], as: UTF8.self))
            position += length
        }
        return RuleProgram.Table(nodes: nodes, children: children, comparisons: comparisons, chains: chains, steps: steps, strings: strings)
    }
}
