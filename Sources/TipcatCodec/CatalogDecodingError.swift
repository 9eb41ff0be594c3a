import TipcatJSON

/// Why canonical catalog JSON (a bundle, a store object) could not be turned back into a `Catalog`.
public struct CatalogDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words.
    public var message: String
    /// Where in the document: a path such as `tips[NewTrailTip].title` (empty for the root).
    public var path: String

    /// An error at `path`.
    public init(_ message: String, at path: String) {
        self.message = message
        self.path = path
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Typed access to canonical JSON with precise error paths.
struct JSONReader {
    let value: JSONValue
    let path: String

    init(_ value: JSONValue, path: String) {
        self.value = value
        self.path = path
    }

    func fail(_ message: String) -> CatalogDecodingError { CatalogDecodingError(message, at: path) }

    func child(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func object() throws(CatalogDecodingError) -> JSONObject {
        guard case .object(let object) = value else { throw fail("expected an object, found \(value.kindName)") }
        return object
    }

    func array() throws(CatalogDecodingError) -> [JSONNode] {
        guard case .array(let elements) = value else { throw fail("expected an array, found \(value.kindName)") }
        return elements
    }

    func string() throws(CatalogDecodingError) -> String {
        guard case .string(let text) = value else { throw fail("expected a string, found \(value.kindName)") }
        return text
    }

    func int() throws(CatalogDecodingError) -> Int {
        guard case .number(let number) = value, let int = number.intValue else { throw fail("expected an integer, found \(value.kindName)") }
        return int
    }

    func bool() throws(CatalogDecodingError) -> Bool {
        guard case .bool(let flag) = value else { throw fail("expected true or false, found \(value.kindName)") }
        return flag
    }

    /// The member `key`, required.
    func member(_ key: String) throws(CatalogDecodingError) -> JSONReader {
        guard let node = try object()[key] else { throw fail("missing '\(key)'") }
        return JSONReader(node.value, path: child(key))
    }

    /// The member `key`, if present (and not null).
    func optionalMember(_ key: String) throws(CatalogDecodingError) -> JSONReader? {
        guard let node = try object()[key], !node.value.isNull else { return nil }
        return JSONReader(node.value, path: child(key))
    }

    /// The elements of an array, each with its index path.
    func elements() throws(CatalogDecodingError) -> [JSONReader] {
        try array().enumerated().map { JSONReader($0.element.value, path: "\(path)[\($0.offset)]") }
    }

    /// The members of an object, each with its key path.
    func members() throws(CatalogDecodingError) -> [(String, JSONReader)] {
        try object().members.map { ($0.key, JSONReader($0.value.value, path: child($0.key))) }
    }
}
