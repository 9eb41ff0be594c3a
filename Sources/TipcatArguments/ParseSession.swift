import TipcatCore

/// The state of one `ArgumentParser.parse` call, walking the words left to right.
struct ParseSession {
    /// What `--generate-completion-script` asked for.
    enum CompletionRequest {
        case shell(String)
        case autodetect
    }

    let parser: ArgumentParser
    let words: [String]
    var position = 0
    var stack: [CommandSpec]
    /// After `--`, every word is a positional value.
    var ended = false
    var helpRequested = false
    var versionRequested = false
    var completionRequest: CompletionRequest?
    /// Non-nil once the built-in `help` subcommand was selected: the names given after it.
    var helpCommandNames: [String]?
    var flagCounts: [String: Int] = [:]
    var optionValues: [String: [String]] = [:]
    var positionalValues: [String: [String]] = [:]
    /// Positional values of the current command not yet assigned.
    var pending: [String] = []

    // ArgumentParser reports the first problem of the earliest stage: malformed values while scanning,
    // then missing arguments, then unknown options, then leftover values. A leftover value that is close to a
    // subcommand name is reported before unknown options, since those usually belong to the mistyped subcommand.
    var scanError: UsageError?
    var missingError: UsageError?
    var subcommandError: UsageError?
    var unknownError: UsageError?
    var extraError: UsageError?

    init(parser: ArgumentParser, words: [String]) {
        self.parser = parser
        self.words = words
        self.stack = [parser.root]
    }

    var command: CommandSpec { stack.last ?? parser.root }

    mutating func run() throws(UsageError) -> ParseResult {
        while position < words.count {
            let word = words[position]
            position += 1
            if ended {
                handleValue(word)
                continue
            }
            switch classify(word) {
            case .terminator: ended = true
            case .value(let value): handleValue(value)
            case .long(let name, let attached): handleLong(name, attached: attached)
            case .short(let group, let attached): handleShort(group, attached: attached)
            case .invalid(let text): record(.scan, error("Invalid option: \(text)"))
            }
        }
        if helpCommandNames == nil { assignPending() }
        return try finish()
    }

    mutating func finish() throws(UsageError) -> ParseResult {
        if let completionRequest {
            return try completionScript(for: completionRequest)
        }
        if let names = helpCommandNames {
            let target = parser.stack(for: names, lenient: true) ?? [parser.root]
            return .help(parser.renderer.help(stack: target))
        }
        if helpRequested { return .help(parser.renderer.help(stack: stack)) }
        if versionRequested, let version = parser.root.version { return .version(version) }
        checkRequiredArguments()
        if var failure = scanError ?? missingError ?? subcommandError ?? unknownError ?? extraError {
            if words.isEmpty {
                failure.argumentHelp = ""
                failure.fullHelp = parser.renderer.help(stack: [parser.root])
            }
            throw failure
        }
        if !command.subcommands.isEmpty { return .help(parser.renderer.help(stack: stack)) }
        return .run(parsedArguments())
    }

    func parsedArguments() -> ParsedArguments {
        var defaults: [String: String] = [:]
        for spec in stack.lazy.flatMap(\.arguments) where spec.kind != .flag {
            if let value = spec.defaultValue { defaults[spec.name] = value }
        }
        return ParsedArguments(
            commandPath: stack.map(\.name), flagCounts: flagCounts, optionValues: optionValues,
            positionalValues: positionalValues, defaults: defaults)
    }

    // MARK: Words

    func classify(_ word: String) -> Token {
        let digitShort = stack.contains { $0.arguments.contains { $0.shortName?.isNumber == true } }
        return Token.classify(word, digitShortNames: digitShort)
    }

    /// Consumes the next word if it is a value (not an option and not `--`).
    mutating func takeNextValue() -> String? {
        guard !ended, position < words.count, classify(words[position]).isValue else { return nil }
        position += 1
        return words[position - 1]
    }

    mutating func handleValue(_ word: String) {
        if let names = helpCommandNames {
            helpCommandNames = names + [word]
            return
        }
        if !ended, !command.subcommands.isEmpty {
            if let child = command.subcommand(named: word) {
                assignPending()
                stack.append(child)
                return
            }
            if word == "help", stack.count == 1 {
                assignPending()
                helpCommandNames = []
                return
            }
        }
        pending.append(word)
    }

    mutating func handleLong(_ name: String, attached: String?) {
        if let spec = findNamed({ $0.name == name }) {
            apply(spec, spelled: "--\(name)", attached: attached)
            return
        }
        if name == "help" {
            helpRequested = true
            return
        }
        // The built-in `help` subcommand takes names only and ignores anything else.
        if helpCommandNames != nil { return }
        if name == "version", parser.root.version != nil {
            versionRequested = true
            return
        }
        if name == "generate-completion-script" {
            if let shell = attached ?? takeNextValue() {
                completionRequest = .shell(shell)
            } else {
                completionRequest = .autodetect
            }
            return
        }
        record(.unknown, error(unknownOptionMessage("--\(name)")))
    }

    mutating func handleShort(_ group: [Character], attached: String?) {
        let resolved = group.map { character in findNamed { $0.shortName == character } }
        let isHelp: (Int) -> Bool = { resolved[$0] == nil && group[$0] == "h" }
        if group.indices.contains(where: isHelp) || (group == Array("help") && resolved[0] == nil) {
            helpRequested = true
            return
        }
        if helpCommandNames != nil { return }
        let spelledGroup = "-" + String(group)
        if resolved.contains(where: { $0 == nil }) {
            let message = group.count == 1 ? "Unknown option '\(spelledGroup)'" : unknownOptionMessage(spelledGroup)
            record(.unknown, error(message))
            return
        }
        for (offset, spec) in resolved.enumerated() {
            guard let spec else { continue }
            let isLast = offset == group.count - 1
            let spelled = "-\(group[offset])"
            if spec.kind == .option, !isLast {
                record(.scan, error(compositeMessage(spelledGroup, short: spelled, spec: spec)))
                return
            }
            apply(spec, spelled: spelled, attached: isLast ? attached : nil, compositeName: group.count > 1 ? spelledGroup : nil)
        }
    }

    /// Records a flag or an option occurrence.
    mutating func apply(_ spec: ArgumentSpec, spelled: String, attached: String?, compositeName: String? = nil) {
        switch spec.kind {
        case .flag:
            if let attached {
                record(.scan, error("The option '\(spelled)' does not take any value, but '\(attached)' was specified."))
                return
            }
            flagCounts[spec.name, default: 0] += 1
        case .option:
            guard let value = attached ?? takeNextValue() else {
                if let compositeName {
                    record(.scan, error(compositeMessage(compositeName, short: spelled, spec: spec)))
                } else {
                    record(.scan, error(
                        "Missing value for '\(spelled) <\(spec.valueName)>'",
                        help: helpLine("\(spelled) <\(spec.valueName)>", spec)))
                }
                return
            }
            if !isAllowed(value, spec) {
                record(.scan, invalidValueError(value, label: "\(spelled) <\(spec.valueName)>", spec))
                return
            }
            optionValues[spec.name, default: []].append(value)
        case .positional:
            break
        }
    }

    /// Assigns the pending values to the current command's positionals; leftovers are unexpected.
    mutating func assignPending() {
        let values = pending
        pending = []
        var index = 0
        for spec in command.arguments where spec.kind == .positional {
            let taken: ArraySlice<String>
            if spec.isRepeating {
                taken = values[index...]
                index = values.count
            } else if index < values.count {
                taken = values[index...index]
                index += 1
            } else {
                continue
            }
            if let bad = taken.first(where: { !isAllowed($0, spec) }) {
                record(.scan, invalidValueError(bad, label: "<\(spec.valueName)>", spec))
            }
            if !taken.isEmpty { positionalValues[spec.name] = Array(taken) }
        }
        guard index < values.count else { return }
        let extra = values[index...]
        var message: String
        if extra.count == 1 {
            message = "Unexpected argument '\(values[index])'"
        } else {
            message = "\(extra.count) unexpected arguments: '" + extra.joined(separator: "', '") + "'"
        }
        let subcommandNames = command.subcommands.filter { !$0.isHidden }.map(\.name)
        if let suggestion = Suggestions.closest(to: values[index], in: subcommandNames) {
            message += ". Did you mean '\(suggestion)'?"
            record(.subcommand, error(message))
        } else {
            record(.extra, error(message))
        }
    }

    /// Reports the first required argument (in declaration order, root first) that was not given.
    mutating func checkRequiredArguments() {
        for depth in stack.indices {
            for spec in stack[depth].arguments where spec.mustBeGiven {
                let given: Bool
                switch spec.kind {
                case .flag: given = true
                case .option: given = optionValues[spec.name] != nil
                case .positional: given = positionalValues[spec.name] != nil
                }
                if given { continue }
                let synopsis: String
                switch spec.kind {
                case .positional: synopsis = "<\(spec.valueName)>"
                default: synopsis = "\(spec.longSynopsis) <\(spec.valueName)>"
                }
                let repeated = spec.isRepeating ? " ..." : ""
                record(.missing, error(
                    "Missing expected argument '\(synopsis)\(repeated)'",
                    help: helpLine(synopsis, spec), stack: Array(stack[...depth])))
                return
            }
        }
    }

    // MARK: Lookup and messages

    /// The nearest flag or option (current command first, then its parents) matching `predicate`.
    func findNamed(_ predicate: (ArgumentSpec) -> Bool) -> ArgumentSpec? {
        for command in stack.reversed() {
            if let spec = command.arguments.first(where: { $0.kind != .positional && predicate($0) }) {
                return spec
            }
        }
        return nil
    }

    func isAllowed(_ value: String, _ spec: ArgumentSpec) -> Bool {
        guard let allowed = spec.allowedValues else { return true }
        return allowed.contains(value)
    }

    /// `Unknown option '--nope'. Did you mean '--note'?` — suggestions come from the current command's long names.
    func unknownOptionMessage(_ spelled: String) -> String {
        let candidates = command.arguments.filter { $0.kind != .positional && !$0.isHidden }.map(\.longSynopsis)
        if let suggestion = Suggestions.closest(to: spelled, in: candidates) {
            return "Unknown option '\(spelled)'. Did you mean '\(suggestion)'?"
        }
        return "Unknown option '\(spelled)'"
    }

    /// ArgumentParser's two-way message for a value-taking short option inside a group such as `-fs`.
    func compositeMessage(_ group: String, short: String, spec: ArgumentSpec) -> String {
        "\(unknownOptionMessage(group))\n   or: Missing value for '\(short) <\(spec.valueName)>' in '\(group)'"
    }

    func invalidValueError(_ value: String, label: String, _ spec: ArgumentSpec) -> UsageError {
        error("The value '\(value)' is invalid for '\(label)'\(Self.valueList(spec.allowedValues ?? []))", help: helpLine(label, spec))
    }

    /// `. Please provide one of 'a', 'b' or 'c'.`, or a bulleted list from six values on.
    static func valueList(_ values: [String]) -> String {
        if values.isEmpty { return "" }
        if values.count < 6 {
            let quoted = values.map { "'\($0)'" }
            let list: String
            if quoted.count <= 2 {
                list = quoted.joined(separator: " and ")
            } else {
                list = quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
            }
            return ". Please provide one of \(list)."
        }
        return ". Please provide one of the following:\n" + values.map { "  - \($0)" }.joined(separator: "\n")
    }

    /// The `Help:` line's text, or empty when the argument has no help.
    func helpLine(_ label: String, _ spec: ArgumentSpec) -> String {
        spec.help.isEmpty ? "" : "\(label)  \(spec.help)"
    }

    func error(_ message: String, help: String = "", stack errorStack: [CommandSpec]? = nil) -> UsageError {
        let errorStack = errorStack ?? stack
        let names = errorStack.map(\.name).joined(separator: " ")
        return UsageError(
            message: message, argumentHelp: help, usage: parser.renderer.usage(stack: errorStack),
            helpHint: "  See '\(names) --help' for more information.", commandPath: errorStack.map(\.name))
    }

    /// The stages whose first error is kept, in reporting order.
    enum Stage {
        case scan, missing, subcommand, unknown, extra
    }

    /// Keeps `error` unless the stage already has one.
    mutating func record(_ stage: Stage, _ error: UsageError) {
        switch stage {
        case .scan: if scanError == nil { scanError = error }
        case .missing: if missingError == nil { missingError = error }
        case .subcommand: if subcommandError == nil { subcommandError = error }
        case .unknown: if unknownError == nil { unknownError = error }
        case .extra: if extraError == nil { extraError = error }
        }
    }

    func completionScript(for request: CompletionRequest) throws(UsageError) -> ParseResult {
        let shells = Shell.allCases.map(\.rawValue).joined(separator: " ")
        switch request {
        case .shell(let name):
            if let shell = Shell(rawValue: name) {
                return .help(CompletionScript.generate(for: parser.root, shell: shell))
            }
            throw error("""
                Can't generate completion scripts for '\(name)'.
                Please use --generate-completion-script=<shell> with one of:
                    \(shells)
                """, stack: [parser.root])
        case .autodetect:
            throw error("""
                Can't autodetect a supported shell.
                Please use --generate-completion-script=<shell> with one of:
                    \(shells)
                """, stack: [parser.root])
        }
    }
}
