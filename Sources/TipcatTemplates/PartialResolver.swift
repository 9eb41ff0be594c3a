/// Where partials (`{{>name}}`) and parents (`{{<name}}`) come from.
public protocol PartialResolver: Sendable {
    /// The template called `name`, or `nil` when there is none (what then happens is
    /// ``RenderOptions/missingPartials``' choice). Throwing fails the render.
    func template(named name: String) throws -> Template?
}

/// No partials at all: every `{{>name}}` is missing.
public struct EmptyPartialResolver: PartialResolver, Hashable {
    /// The resolver with no partials.
    public init() {}

    /// Always `nil`.
    public func template(named name: String) -> Template? { nil }
}

/// Partials from a dictionary of parsed templates: for tests, the spec suite and embedded templates.
public struct DictionaryPartialResolver: PartialResolver, Hashable {
    /// The partials, by name.
    public var templates: [String: Template]

    /// A resolver over already parsed templates.
    public init(_ templates: [String: Template] = [:]) {
        self.templates = templates
    }

    /// Parses every source; each template is named after its key (so errors point at `key:line:col`).
    public init(sources: [String: String]) throws(TemplateError) {
        var templates: [String: Template] = [:]
        templates.reserveCapacity(sources.count)
        for (name, source) in sources {
            templates[name] = try Template(source, name: name)
        }
        self.templates = templates
    }

    /// The template stored under `name`.
    public func template(named name: String) -> Template? { templates[name] }
}

/// A partial name that a file-based resolver refuses because it could reach outside its folder.
public struct PartialNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why the name is refused.
    public enum Reason: Hashable, Sendable {
        case empty
        case absolutePath
        case parentDirectory
        case currentDirectory
        case emptyComponent
        case nulByte
        case backslash
        case controlCharacter

        /// A short English explanation.
        public var explanation: String {
            switch self {
            case .empty: "the name is empty"
            case .absolutePath: "absolute paths are not allowed"
            case .parentDirectory: "'..' would leave the partials folder"
            case .currentDirectory: "'.' path components are not allowed"
            case .emptyComponent: "empty path components ('//' or a trailing '/') are not allowed"
            case .nulByte: "NUL bytes are not allowed"
            case .backslash: "backslashes are not allowed"
            case .controlCharacter: "control characters are not allowed"
            }
        }
    }

    /// The refused name, as written.
    public var name: String
    /// Why it was refused.
    public var reason: Reason

    /// An error refusing `name`.
    public init(name: String, reason: Reason) {
        self.name = name
        self.reason = reason
    }

    public var description: String { "refused partial name '\(name)': \(reason.explanation)" }

    /// Checks that `name` is a relative path of plain components (`header`, `emails/footer`): no `..`, no
    /// `.`, no absolute path, no empty component, no NUL, backslash or other control character.
    public static func validate(_ name: String) throws(PartialNameError) {
        func refuse(_ reason: Reason) -> PartialNameError { PartialNameError(name: name, reason: reason) }
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else { throw refuse(.empty) }
        if bytes.contains(0) { throw refuse(.nulByte) }
        if bytes.contains(UInt8(ascii: "\\")) { throw refuse(.backslash) }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { throw refuse(.controlCharacter) }
        if bytes[0] == UInt8(ascii: "/") { throw refuse(.absolutePath) }
        for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            if component.isEmpty { throw refuse(.emptyComponent) }
            if component.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) { throw refuse(.parentDirectory) }
            if component.elementsEqual([UInt8(ascii: ".")]) { throw refuse(.currentDirectory) }
        }
    }
}
