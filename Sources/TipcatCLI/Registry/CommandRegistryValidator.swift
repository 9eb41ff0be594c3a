import TipcatArguments

/// Checks that a command tree is well formed; `CommandRegistryTests` runs it on `CommandRegistry.root`.
///
/// Checks: sibling commands have distinct names; within a command (counting the options of the commands
/// above it, which the parser also accepts) long and short names are distinct; every leaf has a runner and
/// no spec declares children the registry does not know; abstracts are not empty; positionals have names of
/// their own; no required positional follows an optional or repeating one, and nothing follows a repeating
/// one; examples start with `tipcat `.
enum CommandRegistryValidator {
    /// One problem, with the path of the command it belongs to.
    struct Problem: Sendable, Hashable, CustomStringConvertible {
        var path: [String]
        var message: String
        var description: String { path.joined(separator: " ") + ": " + message }
    }

    /// Every problem in the tree below (and including) `root`; empty when it is well formed.
    static func problems(in root: Command) -> [Problem] {
        var problems: [Problem] = []
        check(root, path: [root.spec.name], inherited: [], into: &problems)
        return problems
    }

    private static func check(_ command: Command, path: [String], inherited: [ArgumentSpec], into problems: inout [Problem]) {
        func report(_ message: String) { problems.append(Problem(path: path, message: message)) }
        let spec = command.spec
        if spec.abstract.trimmingSpaces.isEmpty { report("the abstract is empty") }
        if !spec.subcommands.isEmpty {
            report("the spec declares subcommands (\(spec.subcommands.map(\.name).joined(separator: ", "))); declare them in the registry with their runners")
        }
        if command.subcommands.isEmpty && command.run == nil { report("a leaf command without a runner") }
        for example in spec.examples where !example.hasPrefix("tipcat ") {
            report("the example '\(example)' does not start with 'tipcat '")
        }
        // Names: the command's own arguments plus the named ones it inherits.
        var longNames: Set<String> = []
        var shortNames: Set<Character> = []
        for argument in inherited + spec.arguments where argument.kind != .positional {
            if argument.name == "help" || argument.shortName == "h" { report("--help and -h are built in") }
            if !longNames.insert(argument.name).inserted { report("--\(argument.name) is declared twice") }
            if let short = argument.shortName, !shortNames.insert(short).inserted { report("-\(short) is declared twice") }
        }
        var positionalNames: Set<String> = []
        var sawOptional = false
        var sawRepeating = false
        for argument in spec.arguments where argument.kind == .positional {
            if !positionalNames.insert(argument.name).inserted { report("the positional <\(argument.name)> is declared twice") }
            // Parsed values are looked up by name, so a positional must not share one with an option.
            if longNames.contains(argument.name) { report("the positional <\(argument.name)> has the name of an option") }
            if sawRepeating { report("<\(argument.name)> follows a repeating positional") }
            if argument.isRequired && argument.defaultValue == nil && sawOptional {
                report("the required <\(argument.name)> follows an optional positional")
            }
            if !argument.isRequired || argument.defaultValue != nil { sawOptional = true }
            if argument.isRepeating { sawRepeating = true }
        }
        var siblingNames: Set<String> = []
        for child in command.subcommands {
            if !siblingNames.insert(child.spec.name).inserted { report("two subcommands are named '\(child.spec.name)'") }
            let named = inherited + spec.arguments.filter { $0.kind != .positional }
            check(child, path: path + [child.spec.name], inherited: named, into: &problems)
        }
    }
}

extension String {
    /// The text without leading and trailing spaces and newlines (Foundation-free).
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
