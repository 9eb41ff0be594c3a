/// Renders usage lines and help screens in ArgumentParser's layout.
struct HelpRenderer {
    /// Column where help texts start, counted from the start of the line.
    static let labelColumn = 26
    /// Indentation of labels inside a section.
    static let indent = 2
    /// Beyond this many visible arguments, the usage line collapses optional ones into `[<options>]`.
    static let maxUsageArguments = 12

    /// The root command (its version enables `--version` on every command).
    let root: CommandSpec
    /// The wrapping width.
    let width: Int

    /// The usage synopsis of the last command in `stack`, e.g. `tipcat validate [--strict] <dir>`.
    func usage(stack: [CommandSpec]) -> String {
        guard let command = stack.last else { return "" }
        let toolName = stack.map(\.name).joined(separator: " ")
        var visible = command.arguments.filter { !$0.isHidden }
        var synopsis: String
        if visible.isEmpty {
            synopsis = toolName
        } else if visible.count > Self.maxUsageArguments {
            visible = visible.filter { $0.kind == .positional || $0.mustBeGiven }
            if !visible.isEmpty, visible.count <= Self.maxUsageArguments {
                synopsis = "\(toolName) [<options>] " + visible.map(Self.usageSynopsis).joined(separator: " ")
            } else {
                synopsis = "\(toolName) <options>"
            }
        } else {
            synopsis = "\(toolName) " + visible.map(Self.usageSynopsis).joined(separator: " ")
        }
        if !command.subcommands.isEmpty {
            if synopsis.last != " " { synopsis += " " }
            synopsis += "<subcommand>"
        }
        return synopsis
    }

    /// One argument as it appears in a usage line: `[--format <format>]`, `<dir>`, `[<tip-id> ...]`.
    static func usageSynopsis(_ argument: ArgumentSpec) -> String {
        var text: String
        switch argument.kind {
        case .flag: text = argument.longSynopsis
        case .option: text = "\(argument.longSynopsis) <\(argument.valueName)>"
        case .positional: text = "<\(argument.valueName)>"
        }
        if argument.isRepeating { text += " ..." }
        if !argument.mustBeGiven || argument.kind == .flag { text = "[\(text)]" }
        return text
    }

    /// The label of an argument in the help screen: `-f, --format <format>` or `<dir>`.
    static func helpLabel(_ argument: ArgumentSpec) -> String {
        switch argument.kind {
        case .positional:
            return "<\(argument.valueName)>"
        case .flag, .option:
            var names = argument.longSynopsis
            if let short = argument.shortSynopsis { names = "\(short), \(names)" }
            return argument.kind == .option ? "\(names) <\(argument.valueName)>" : names
        }
    }

    /// Help text plus `(values: …; default: …)`, as ArgumentParser describes an argument.
    static func helpDescription(_ argument: ArgumentSpec) -> String {
        let values = (argument.allowedValues ?? []).filter { !$0.isEmpty }
        let defaultValue = argument.kind == .flag ? "" : (argument.defaultValue ?? "")
        let suffix: String
        switch (values.isEmpty, defaultValue.isEmpty) {
        case (true, true): suffix = ""
        case (false, true): suffix = "(values: \(values.joined(separator: ", ")))"
        case (true, false): suffix = "(default: \(defaultValue))"
        case (false, false): suffix = "(values: \(values.joined(separator: ", ")); default: \(defaultValue))"
        }
        return [argument.help, suffix].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The full help screen of the last command in `stack`.
    func help(stack: [CommandSpec]) -> String {
        guard let command = stack.last else { return "" }
        var sections: [String] = []

        let visible = command.arguments.filter { !$0.isHidden }
        let positionals = visible.filter { $0.kind == .positional }
        sections.append(section("ARGUMENTS", positionals.map { (Self.helpLabel($0), Self.helpDescription($0)) }))

        var options = visible.filter { $0.kind != .positional }.map { (Self.helpLabel($0), Self.helpDescription($0)) }
        if root.version != nil { options.append(("--version", "Show the version.")) }
        options.append(("-h, --help", "Show help information."))
        sections.append(section("OPTIONS", options))

        if !command.examples.isEmpty {
            sections.append("EXAMPLES:\n" + command.examples.map { "  \($0)\n" }.joined())
        }

        let subcommands = command.subcommands.filter { !$0.isHidden }
        sections.append(section("SUBCOMMANDS", subcommands.map { ($0.name, $0.abstract) }))

        var overview = command.abstract
        if !command.discussion.isEmpty {
            if !overview.isEmpty { overview += "\n" }
            overview += "\n\(command.discussion)"
        }
        let renderedOverview = overview.isEmpty ? "" : TextWrapping.wrap("OVERVIEW: \(overview)", width: width) + "\n\n"
        let usage = self.usage(stack: stack)
        let renderedUsage = usage.isEmpty ? "" : "USAGE: \(usage)\n\n"
        var hint = ""
        if !subcommands.isEmpty {
            var names = stack.map(\.name)
            names.insert("help", at: 1)
            hint = "\n  See '\(names.joined(separator: " ")) <subcommand>' for detailed help."
        }
        return renderedOverview + renderedUsage + sections.filter { !$0.isEmpty }.joined(separator: "\n") + hint
    }

    /// A titled section of label/description rows, or the empty string when there are no rows.
    func section(_ title: String, _ rows: [(label: String, description: String)]) -> String {
        guard !rows.isEmpty else { return "" }
        return "\(title):\n" + rows.map { row(label: $0.label, description: $0.description) }.joined()
    }

    /// One row: the label indented by two, the description aligned at column 26 and wrapped.
    func row(label: String, description: String) -> String {
        let paddedLabel = String(repeating: " ", count: Self.indent) + label
        guard !description.isEmpty else { return paddedLabel + "\n" }
        let wrapped = TextWrapping.wrap(description, width: width, indent: Self.labelColumn)
        if paddedLabel.count < Self.labelColumn {
            return paddedLabel + String(wrapped.dropFirst(paddedLabel.count)) + "\n"
        }
        return paddedLabel + "\n" + wrapped + "\n"
    }
}
