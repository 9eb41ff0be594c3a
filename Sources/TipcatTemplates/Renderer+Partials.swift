extension Renderer {
    mutating func renderPartial(_ partial: PartialNode, in storage: TemplateStorage) throws(TemplateError) {
        if partial.indentation == nil { beginInline() }
        guard let name = resolveName(partial.name),
              let template = try resolve(name, offset: partial.offset, in: storage)
        else { return }
        try enter(partial.offset, in: storage)
        let savedIndent = indent
        // A standalone partial is indented as a whole; an inline one is inserted as it is.
        indent = partial.indentation.map { indent + $0 } ?? ""
        defer {
            indent = savedIndent
            depth -= 1
        }
        try render(template.storage.nodes, in: template.storage)
    }

    mutating func renderParent(_ parent: ParentNode, in storage: TemplateStorage) throws(TemplateError) {
        if parent.indentation == nil { beginInline() }
        guard let name = resolveName(parent.name),
              let template = try resolve(name, offset: parent.offset, in: storage)
        else { return }
        try enter(parent.offset, in: storage)
        let savedIndent = indent
        indent = parent.indentation.map { indent + $0 } ?? ""
        overrides.append(Overrides(blocks: parent.overrides, storage: storage))
        defer {
            overrides.removeLast()
            indent = savedIndent
            depth -= 1
        }
        try render(template.storage.nodes, in: template.storage)
    }

    mutating func renderBlock(_ block: BlockNode, in storage: TemplateStorage) throws(TemplateError) {
        if !block.standalone { beginInline() }
        var content = block.nodes
        var contentStorage = storage
        for entry in overrides {
            if let nodes = entry.blocks[block.name] {
                content = nodes
                contentStorage = entry.storage
                break
            }
        }
        try enter(block.offset, in: storage)
        let savedIndent = indent
        indent += block.indentation
        pendingLineStart = block.standalone
        defer {
            indent = savedIndent
            pendingLineStart = nil
            depth -= 1
        }
        try render(content, in: contentStorage)
    }

    /// The partial's name: fixed, or the string value of a dynamic name (`nil`, render nothing, otherwise).
    func resolveName(_ name: PartialName) -> String? {
        switch name {
        case .fixed(let text):
            return text
        case .dynamic(let path):
            guard case .string(let text)? = lookup(path) else { return nil }
            return text
        }
    }

    /// The partial called `name` from the resolver (once per render), applying the missing-partial policy.
    mutating func resolve(_ name: String, offset: Int, in storage: TemplateStorage) throws(TemplateError) -> Template? {
        if let cached = partialCache.cached(name) {
            return cached
        }
        let template: Template?
        do {
            template = try partials.template(named: name)
        } catch let error as TemplateError {
            throw error
        } catch let error as PartialNameError {
            throw TemplateError(.unsafePartialName(name: error.name, reason: error.reason), at: storage.location(offset))
        } catch {
            throw TemplateError(.partialFailed(name: name, detail: String(describing: error)), at: storage.location(offset))
        }
        partialCache.store(template, for: name)
        if template == nil, options.missingPartials == .fail {
            throw TemplateError(.missingPartial(name: name), at: storage.location(offset))
        }
        return template
    }
}
