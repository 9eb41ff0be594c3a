import TipcatArguments
import TipcatJSON

/// `tipcat help --json`: the command tree as a versioned JSON document, for documentation and tools.
///
/// ```json
/// {"serializationVersion": 1, "command": {"name": "tipcat", "abstract": "…", "discussion": "…",
///  "arguments": [{"kind": "option", "names": ["--catalog"], "valueName": "dir", "help": "…", "default": "Catalog",
///                 "allowed": null, "required": false, "repeating": false}], "examples": […], "subcommands": […]}}
/// ```
/// Readers check `serializationVersion` first; fields may be added without changing it, never removed or retyped.
enum CommandTreeJSON {
    /// The version of the document's shape.
    static let serializationVersion = 1

    /// The document for `spec` (and everything below it).
    static func document(for spec: CommandSpec) -> JSONValue {
        .object([("serializationVersion", .int(serializationVersion)), ("command", command(spec))])
    }

    static func command(_ spec: CommandSpec) -> JSONValue {
        .object([
            ("name", .string(spec.name)),
            ("abstract", .string(spec.abstract)),
            ("discussion", .string(spec.discussion)),
            ("arguments", .array(spec.arguments.filter { !$0.isHidden }.map(argument))),
            ("examples", .array(spec.examples.map(JSONValue.string))),
            ("subcommands", .array(spec.subcommands.filter { !$0.isHidden }.map(command))),
        ])
    }

    static func argument(_ spec: ArgumentSpec) -> JSONValue {
        let kind: String
        var names: [String]
        switch spec.kind {
        case .flag: kind = "flag"; names = ["--" + spec.name]
        case .option: kind = "option"; names = ["--" + spec.name]
        case .positional: kind = "positional"; names = [spec.name]
        }
        if let short = spec.shortName { names.append("-\(short)") }
        return .object([
            ("kind", .string(kind)),
            ("names", .array(names.map(JSONValue.string))),
            ("valueName", spec.kind == .flag ? .null : .string(spec.valueName)),
            ("help", .string(spec.help)),
            ("default", spec.defaultValue.map(JSONValue.string) ?? .null),
            ("allowed", spec.allowedValues.map { .array($0.map(JSONValue.string)) } ?? .null),
            ("required", .bool(spec.isRequired && spec.defaultValue == nil)),
            ("repeating", .bool(spec.isRepeating)),
        ])
    }
}
