/// How a shell completion script completes the value of an option or positional argument.
public enum CompletionKind: Sendable, Hashable {
    /// No completion.
    case none
    /// File names, optionally only those with one of the given extensions (without the dot).
    case file(extensions: [String] = [])
    /// Directory names.
    case directory
    /// A fixed list of words.
    case list([String])
    /// The output lines of a POSIX shell command, run by the completion script.
    case shellCommand(String)
}

/// One flag, option or positional argument of a command.
public struct ArgumentSpec: Sendable, Hashable {
    /// The three shapes an argument can take.
    public enum Kind: Sendable, Hashable {
        /// A Boolean switch such as `--strict` (optionally `-s`).
        case flag
        /// A named value such as `--format <format>`.
        case option
        /// A value identified by its position, such as `<dir>`.
        case positional
    }

    /// Flag, option or positional.
    public var kind: Kind
    /// The long name without dashes (`format` for `--format`), or the positional's name.
    public var name: String
    /// The single-character name used with one dash (`f` for `-f`), if any.
    public var shortName: Character?
    /// The placeholder shown between angle brackets (`<format>`).
    public var valueName: String
    /// One-line help shown in the help screen.
    public var help: String
    /// Whether the argument may be given several times (options) or absorbs all remaining values (positionals).
    public var isRepeating: Bool
    /// Whether parsing fails when the argument is absent and has no default.
    public var isRequired: Bool
    /// The value used when the argument is absent; shown as `(default: x)`.
    public var defaultValue: String?
    /// When set, the only values accepted; shown as `(values: a, b)` and used for completion.
    public var allowedValues: [String]?
    /// How completion scripts complete the value.
    public var completion: CompletionKind
    /// Hidden arguments are accepted but left out of usage, help and completion scripts.
    public var isHidden: Bool

    /// Creates an argument from all of its fields.
    public init(
        kind: Kind,
        name: String,
        shortName: Character? = nil,
        valueName: String? = nil,
        help: String = "",
        isRepeating: Bool = false,
        isRequired: Bool = false,
        defaultValue: String? = nil,
        allowedValues: [String]? = nil,
        completion: CompletionKind = .none,
        isHidden: Bool = false
    ) {
        self.kind = kind
        self.name = name
        self.shortName = shortName
        self.valueName = valueName ?? name
        self.help = help
        self.isRepeating = isRepeating
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.allowedValues = allowedValues
        self.completion = completion
        self.isHidden = isHidden
    }

    /// A Boolean flag: `.flag("strict", short: "s", help: "Treat warnings as errors.")`.
    public static func flag(
        _ name: String, short: Character? = nil, help: String = "", repeating: Bool = false, hidden: Bool = false
    ) -> ArgumentSpec {
        ArgumentSpec(kind: .flag, name: name, shortName: short, help: help, isRepeating: repeating, isHidden: hidden)
    }

    /// A named option taking a value: `.option("format", valueName: "format", help: "…", default: "text", allowed: ["text", "json"])`.
    public static func option(
        _ name: String,
        short: Character? = nil,
        valueName: String? = nil,
        help: String = "",
        default defaultValue: String? = nil,
        allowed: [String]? = nil,
        required: Bool = false,
        repeating: Bool = false,
        completion: CompletionKind = .none,
        hidden: Bool = false
    ) -> ArgumentSpec {
        ArgumentSpec(
            kind: .option, name: name, shortName: short, valueName: valueName, help: help,
            isRepeating: repeating, isRequired: required, defaultValue: defaultValue,
            allowedValues: allowed, completion: completion, isHidden: hidden)
    }

    /// A positional argument: `.positional("dir", help: "…", required: false)`; `repeating` absorbs the rest.
    public static func positional(
        _ name: String,
        help: String = "",
        required: Bool = true,
        repeating: Bool = false,
        default defaultValue: String? = nil,
        allowed: [String]? = nil,
        completion: CompletionKind = .none,
        hidden: Bool = false
    ) -> ArgumentSpec {
        ArgumentSpec(
            kind: .positional, name: name, help: help, isRepeating: repeating, isRequired: required,
            defaultValue: defaultValue, allowedValues: allowed, completion: completion, isHidden: hidden)
    }

    /// The completion used by scripts: the explicit one, else the allowed values.
    var effectiveCompletion: CompletionKind {
        if case .none = completion, let allowedValues { return .list(allowedValues) }
        return completion
    }

    /// Whether the argument must be supplied on the command line.
    var mustBeGiven: Bool { isRequired && defaultValue == nil }

    /// `--name`, the preferred spelling in usage lines and messages.
    var longSynopsis: String { "--\(name)" }

    /// `-n`, if the argument has a short name.
    var shortSynopsis: String? { shortName.map { "-\($0)" } }
}
