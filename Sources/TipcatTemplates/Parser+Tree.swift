extension Parser {
    /// The nodes for tokens `start..<end`, where `end` is the index of the enclosing close tag (or the token
    /// count). Recursion depth is bounded by the parser's nesting limit.
    func build(from start: Int, to end: Int) -> [Node] {
        var nodes: [Node] = []
        var index = start
        while index < end {
            let token = tokens[index]
            if token.kind == .text {
                appendText(token, to: &nodes)
                index += 1
                continue
            }
            appendLineStartMarker(for: token, to: &nodes)
            switch token.kind {
            case .variable:
                nodes.append(.variable(VariableNode(name: token.name, escaped: true, offset: token.start)))
            case .unescaped:
                nodes.append(.variable(VariableNode(name: token.name, escaped: false, offset: token.start)))
            case .section, .inverted:
                let close = tokens[token.match]
                nodes.append(.section(SectionNode(
                    name: token.name,
                    inverted: token.kind == .inverted,
                    nodes: build(from: index + 1, to: token.match),
                    standalone: token.standalone,
                    startsLine: !token.leftRemoved && isLineStart(token.start),
                    bodyStart: token.end,
                    bodyEnd: close.start,
                    delimiters: token.delimiters,
                    offset: token.start
                )))
                index = token.match
            case .partial:
                nodes.append(.partial(PartialNode(
                    name: partialName(token), indentation: token.indentation, offset: token.start
                )))
            case .parent:
                nodes.append(.parent(ParentNode(
                    name: partialName(token),
                    indentation: token.indentation,
                    overrides: overrides(from: index + 1, to: token.match),
                    offset: token.start
                )))
                index = token.match
            case .block:
                nodes.append(.block(BlockNode(
                    name: token.text,
                    nodes: Self.dedent(build(from: index + 1, to: token.match), by: token.dedent),
                    indentation: token.indentation ?? "",
                    standalone: token.standalone,
                    offset: token.start
                )))
                index = token.match
            case .text, .comment, .delimiters, .close:
                break
            }
            index += 1
        }
        if end < tokens.count {
            appendLineStartMarker(for: tokens[end], to: &nodes)
        }
        return nodes
    }

    private func partialName(_ token: Token) -> PartialName {
        token.dynamic ? .dynamic(token.name) : .fixed(token.text)
    }

    /// The blocks directly inside a parent body; everything else there is ignored. The first definition of
    /// a name wins.
    private func overrides(from start: Int, to end: Int) -> [String: [Node]] {
        var blocks: [String: [Node]] = [:]
        var index = start
        while index < end {
            let token = tokens[index]
            if token.kind == .block, blocks[token.text] == nil {
                blocks[token.text] = Self.dedent(build(from: index + 1, to: token.match), by: token.dedent)
            }
            switch token.kind {
            case .section, .inverted, .parent, .block: index = token.match + 1
            default: index += 1
            }
        }
        return blocks
    }

    private func appendText(_ token: Token, to nodes: inout [Node]) {
        guard token.start < token.end else { return }
        let text = string(token.start, token.end)
        if case .text(let previous, let startsLine)? = nodes.last {
            nodes[nodes.count - 1] = .text(previous + text, startsLine: startsLine)
        } else {
            nodes.append(.text(text, startsLine: isLineStart(token.start)))
        }
    }

    /// A tag that begins a template line (and did not take the line with it) marks where indentation goes.
    private func appendLineStartMarker(for token: Token, to nodes: inout [Node]) {
        if !token.leftRemoved, isLineStart(token.start) { nodes.append(.lineStart) }
    }

    /// Removes `prefix` from the start of every line of `nodes` that has it: lines of text, the indentation
    /// of standalone partials, parents and blocks. Blocks' content stays as is (it is relative to them).
    static func dedent(_ nodes: [Node], by prefix: String) -> [Node] {
        guard !prefix.isEmpty else { return nodes }
        let prefixBytes = Array(prefix.utf8)
        func strip(_ indentation: String?) -> String? {
            guard let indentation, indentation.hasPrefix(prefix) else { return indentation }
            return String(indentation.dropFirst(prefix.count))
        }
        return nodes.map { node in
            switch node {
            case .text(let text, let startsLine):
                return .text(removing(prefixBytes, atLineStartsOf: text, startsLine: startsLine), startsLine: startsLine)
            case .section(let section):
                return .section(SectionNode(
                    name: section.name, inverted: section.inverted, nodes: dedent(section.nodes, by: prefix),
                    standalone: section.standalone, startsLine: section.startsLine, bodyStart: section.bodyStart, bodyEnd: section.bodyEnd,
                    delimiters: section.delimiters, offset: section.offset
                ))
            case .partial(let partial):
                return .partial(PartialNode(name: partial.name, indentation: strip(partial.indentation), offset: partial.offset))
            case .parent(let parent):
                return .parent(ParentNode(
                    name: parent.name, indentation: strip(parent.indentation), overrides: parent.overrides, offset: parent.offset
                ))
            case .block(let block):
                return .block(BlockNode(
                    name: block.name, nodes: block.nodes, indentation: strip(block.indentation) ?? "",
                    standalone: block.standalone, offset: block.offset
                ))
            case .lineStart, .variable:
                return node
            }
        }
    }

    private static func removing(_ prefix: [UInt8], atLineStartsOf text: String, startsLine: Bool) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        var atLineStart = startsLine
        while index < bytes.count {
            if atLineStart, index + prefix.count <= bytes.count, bytes[index..<index + prefix.count].elementsEqual(prefix) {
                index += prefix.count
                atLineStart = false
                continue
            }
            atLineStart = bytes[index] == UInt8(ascii: "\n")
            output.append(bytes[index])
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
