public import TipcatCore
public import TipcatCatalog
public import TipcatJSON
public import TipcatPlugin

/// One external plugin as `plugins.json` declares it.
public struct ExternalPluginSpec: Sendable, Hashable {
    /// Kebab-case; prefixes the rule ids of its findings (`brand-voice/no-exclamation`).
    public var name: String
    /// The program and its arguments; nil means the executable `tipcat-plugin-<name>` on `PATH`.
    public var command: [String]?
    public var kinds: [PluginKind]
    /// Seconds before the plugin is killed.
    public var timeout: Double
    public var options: [String: PluginJSON]
    public var enabled: Bool
    /// What the plugin is for, from plugins.json.
    public var description: String?
    public var location: SourceLocation?

    public static let defaultTimeout = 10.0
    public static let maxTimeout = 3600.0

    public init(
        name: String, command: [String]?, kinds: [PluginKind], timeout: Double = ExternalPluginSpec.defaultTimeout,
        options: [String: PluginJSON] = [:], enabled: Bool = true, description: String? = nil, location: SourceLocation? = nil
    ) {
        self.name = name
        self.command = command
        self.kinds = kinds
        self.timeout = timeout
        self.options = options
        self.enabled = enabled
        self.description = description
        self.location = location
    }

    /// What runs: the command as written, or the git-style executable name.
    public var commandLine: [String] { command ?? ["tipcat-plugin-\(name)"] }
}

/// `plugins.json`: the catalog's external plugins, decoded with a located finding for every problem.
public struct PluginConfiguration: Sendable {
    public static let fileName = "plugins.json"
    public var plugins: [ExternalPluginSpec]
    public var file: String?

    public init(plugins: [ExternalPluginSpec] = [], file: String? = nil) {
        self.plugins = plugins
        self.file = file
    }

    /// Reads `<catalog>/plugins.json`; no file means no external plugins.
    public static func load(catalogDirectory: String, fileSystem: any CatalogFileSystem = DiskFileSystem())
        -> (configuration: PluginConfiguration, diagnostics: [Diagnostic])
    {
        let path = (catalogDirectory.hasSuffix("/") ? catalogDirectory : catalogDirectory + "/") + fileName
        guard fileSystem.fileExists(path) else { return (PluginConfiguration(), []) }
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.read(path)
        } catch {
            return (PluginConfiguration(file: path), [Diagnostic(error.description, rule: .unreadableFile,
                                                             at: SourceLocation(file: path, line: 1, column: 1))])
        }
        let source = SourceFile(path: path, bytes: bytes)
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(source)
        } catch {
            return (PluginConfiguration(file: path), [error.diagnostic(in: source)])
        }
        var decoder = ConfigurationDecoder(document: document)
        let plugins = decoder.decode()
        return (PluginConfiguration(plugins: plugins, file: path), decoder.diagnostics)
    }
}

/// Decodes `plugins.json` from a located JSON document.
private struct ConfigurationDecoder {
    let document: JSONDocument
    var diagnostics: [Diagnostic] = []

    init(document: JSONDocument) { self.document = document }

    static let topKeys = ["$schema", "plugins"]
    static let pluginKeys = ["name", "command", "kinds", "timeout", "options", "enabled", "description"]

    mutating func decode() -> [ExternalPluginSpec] {
        guard let root = object(document.root, what: "plugins.json") else { return [] }
        checkKeys(root, allowed: ConfigurationDecoder.topKeys, what: "plugins.json")
        guard let list = root["plugins"] else {
            error("plugins.json has no 'plugins' array", rule: .missingKey, at: document.root)
            return []
        }
        guard case .array(let elements) = list.value else {
            wrongType("'plugins'", expected: "an array", node: list)
            return []
        }
        var plugins: [ExternalPluginSpec] = []
        var seen: [String: JSONNode] = [:]
        for element in elements {
            guard let spec = plugin(element) else { continue }
            if let first = seen[spec.name] {
                diagnostics.append(Diagnostic("plugin '\(spec.name)' is declared twice", rule: .duplicatePlugin,
                                          at: document.location(of: element), notes: [.init("first declared here", at: document.location(of: first))]))
                continue
            }
            seen[spec.name] = element
            plugins.append(spec)
        }
        return plugins
    }

    private mutating func plugin(_ node: JSONNode) -> ExternalPluginSpec? {
        guard let object = object(node, what: "a plugin") else { return nil }
        checkKeys(object, allowed: ConfigurationDecoder.pluginKeys, what: "a plugin")
        guard let nameNode = object["name"] else {
            error("a plugin needs a 'name'", rule: .missingKey, at: node)
            return nil
        }
        guard case .string(let name) = nameNode.value else {
            wrongType("'name'", expected: "a string", node: nameNode)
            return nil
        }
        guard PluginName.isValid(name) else {
            error("plugin name '\(name)' must be kebab-case: lowercase letters, digits and '-', starting with a letter or digit",
                  rule: .invalidName, at: nameNode)
            return nil
        }
        var valid = true
        var command: [String]?
        if let commandNode = object["command"] {
            if case .array(let parts) = commandNode.value, !parts.isEmpty,
               case let strings = parts.compactMap(\.value.stringValue), strings.count == parts.count, !strings[0].isEmpty {
                command = strings
            } else {
                wrongType("'command' of plugin '\(name)'", expected: "a non-empty array of strings (program, arguments…)", node: commandNode)
                valid = false
            }
        }
        var kinds: [PluginKind] = []
        if let kindsNode = object["kinds"] {
            if case .array(let parts) = kindsNode.value, !parts.isEmpty {
                for part in parts {
                    let external = PluginKind.allCases.filter { $0 != .style }.map(\.rawValue)
                    guard case .string(let text) = part.value, let kind = PluginKind(rawValue: text), kind != .style else {
                        error("'kinds' of plugin '\(name)' lists \(describe(part)); an external plugin's kinds are "
                              + external.joined(separator: ", ")
                              + (part.value.stringValue.map { Suggestions.didYouMean($0, in: external) } ?? ""),
                              rule: .invalidValue, at: part)
                        valid = false
                        continue
                    }
                    if !kinds.contains(kind) { kinds.append(kind) }
                }
            } else {
                wrongType("'kinds' of plugin '\(name)'", expected: "a non-empty array of kinds", node: kindsNode)
                valid = false
            }
        } else {
            error("plugin '\(name)' needs 'kinds' (lint, generate, pre-publish, post-publish)", rule: .missingKey, at: node)
            valid = false
        }
        var timeout = ExternalPluginSpec.defaultTimeout
        if let timeoutNode = object["timeout"] {
            if let seconds = durationSeconds(timeoutNode), seconds > 0, seconds <= ExternalPluginSpec.maxTimeout {
                timeout = seconds
            } else {
                error("'timeout' of plugin '\(name)' must be a duration from 1ms to 1h, such as \"10s\" or \"500ms\"",
                      rule: .outOfRange, at: timeoutNode)
                valid = false
            }
        }
        var options: [String: PluginJSON] = [:]
        if let optionsNode = object["options"] {
            if case .object(let members) = optionsNode.value {
                for member in members.members { options[member.key] = PluginJSON(member.value.value) }
            } else {
                wrongType("'options' of plugin '\(name)'", expected: "an object", node: optionsNode)
                valid = false
            }
        }
        var enabled = true
        if let enabledNode = object["enabled"] {
            if case .bool(let flag) = enabledNode.value { enabled = flag } else {
                wrongType("'enabled' of plugin '\(name)'", expected: "true or false", node: enabledNode)
                valid = false
            }
        }
        var description: String?
        if let descriptionNode = object["description"] {
            if case .string(let text) = descriptionNode.value { description = text } else {
                wrongType("'description' of plugin '\(name)'", expected: "a string", node: descriptionNode)
            }
        }
        guard valid else { return nil }
        return ExternalPluginSpec(name: name, command: command, kinds: kinds, timeout: timeout, options: options,
                                  enabled: enabled, description: description, location: document.location(of: node))
    }

    /// `"10s"`, `"500ms"`, `"2m"`, or a number of seconds.
    private func durationSeconds(_ node: JSONNode) -> Double? {
        switch node.value {
        case .number(let number): return number.doubleValue
        case .string(let text):
            if text.hasSuffix("ms"), let value = Double(text.dropLast(2)), value.isFinite { return value / 1000 }
            return TimeSpan(text)?.seconds
        default: return nil
        }
    }

    private mutating func object(_ node: JSONNode, what: String) -> JSONObject? {
        guard case .object(let object) = node.value else {
            wrongType(what, expected: "a JSON object", node: node)
            return nil
        }
        return object
    }

    private mutating func checkKeys(_ object: JSONObject, allowed: [String], what: String) {
        var seen: [String: Int] = [:]
        for member in object.members {
            let at = document.location(ofByte: member.keyOffset)
            if let first = seen[member.key] {
                diagnostics.append(Diagnostic("duplicate key '\(member.key)' in \(what)", rule: .duplicateKey, at: at,
                                          notes: [.init("first written here", at: document.location(ofByte: first))]))
            } else {
                seen[member.key] = member.keyOffset
            }
            if !allowed.contains(member.key) {
                diagnostics.append(Diagnostic("unknown key '\(member.key)' in \(what)" + Suggestions.didYouMean(member.key, in: allowed),
                                          rule: .unknownKey, at: at))
            }
        }
    }

    private mutating func wrongType(_ what: String, expected: String, node: JSONNode) {
        error("\(what) must be \(expected), found \(describe(node))", rule: .wrongType, at: node)
    }

    private func describe(_ node: JSONNode) -> String {
        switch node.value {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let number): "the number \(number.text)"
        case .string(let text): "'\(text)'"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private mutating func error(_ message: String, rule: DiagnosticRule, at node: JSONNode) {
        diagnostics.append(Diagnostic(message, rule: rule, at: document.location(of: node)))
    }
}

/// Plugin names: kebab-case, as external executables `tipcat-plugin-<name>` are named.
public enum PluginName {
    public static func isValid(_ name: String) -> Bool { name.utf8.count <= 64 && isKebab(name) }

    /// Lowercase ASCII letters, digits and `-`, starting with a letter or digit (also the rule for the names of
    /// external commands `tipcat-<name>`).
    public static func isKebab(_ name: String) -> Bool {
        guard let first = name.utf8.first else { return false }
        func allowed(_ byte: UInt8) -> Bool { (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) }
        return allowed(first) && name.utf8.allSatisfy { allowed($0) || $0 == UInt8(ascii: "-") }
    }
}

extension PluginJSON {
    /// Converts a parsed JSON value.
    public init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number.doubleValue)
        case .string(let text): self = .string(text)
        case .array(let nodes): self = .array(nodes.map { PluginJSON($0.value) })
        case .object(let object):
            var members: [String: PluginJSON] = [:]
            for member in object.members { members[member.key] = PluginJSON(member.value.value) }
            self = .object(members)
        }
    }
}
