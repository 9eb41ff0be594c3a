public import Foundation

/// A lint plugin: reads the catalog, returns findings.
public protocol LintPlugin: Sendable {
    func lint(_ catalog: PluginCatalog, options: [String: PluginJSON]) throws -> [PluginDiagnostic]
}

/// A generator: reads the catalog, returns files (paths relative to the output directory).
public protocol GeneratorPlugin: Sendable {
    func generate(_ catalog: PluginCatalog, options: [String: PluginJSON]) throws -> [PluginFile]
}

/// A publish hook. `prePublish` vetoes the publish by returning an error finding; `postPublish` is told about
/// the committed version (its findings and failures are warnings).
public protocol PublishHook: Sendable {
    func prePublish(_ event: PublishEvent, catalog: PluginCatalog, options: [String: PluginJSON]) throws -> [PluginDiagnostic]
    func postPublish(_ event: PublishEvent, catalog: PluginCatalog, options: [String: PluginJSON]) throws -> [PluginDiagnostic]
}

extension PublishHook {
    public func prePublish(_ event: PublishEvent, catalog: PluginCatalog, options: [String: PluginJSON]) throws -> [PluginDiagnostic] { [] }
    public func postPublish(_ event: PublishEvent, catalog: PluginCatalog, options: [String: PluginJSON]) throws -> [PluginDiagnostic] { [] }
}

/// Why a request could not be answered.
public struct PluginServerError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Turns a plugin's parts into a `tipcat.plugin/1` program: decode the request, call the part the kind asks
/// for, encode the response. An external Swift plugin's `main.swift` is one line: `PluginServer(…).main()`.
public struct PluginServer: Sendable {
    public var name: String
    public var version: String
    public var summary: String?
    public var optionsSchema: PluginJSON?
    public var linter: (any LintPlugin)?
    public var generator: (any GeneratorPlugin)?
    public var publishHook: (any PublishHook)?

    public init(
        name: String, version: String, summary: String? = nil, optionsSchema: PluginJSON? = nil,
        linter: (any LintPlugin)? = nil, generator: (any GeneratorPlugin)? = nil, publishHook: (any PublishHook)? = nil
    ) {
        self.name = name
        self.version = version
        self.summary = summary
        self.optionsSchema = optionsSchema
        self.linter = linter
        self.generator = generator
        self.publishHook = publishHook
    }

    /// The kinds this server answers.
    public var kinds: [PluginKind] {
        var kinds: [PluginKind] = []
        if linter != nil { kinds.append(.lint) }
        if generator != nil { kinds.append(.generate) }
        if publishHook != nil { kinds += [.prePublish, .postPublish] }
        return kinds
    }

    /// Answers one decoded request.
    public func respond(to request: PluginRequest) throws -> PluginResponse {
        guard request.protocol == PluginProtocol.version else {
            throw PluginServerError("this plugin speaks \(PluginProtocol.version), not \(request.protocol)")
        }
        let options = request.options ?? [:]
        func catalog() throws -> PluginCatalog {
            guard let catalog = request.catalog else { throw PluginServerError("the \(request.kind.rawValue) request has no catalog") }
            return catalog
        }
        func event() throws -> PublishEvent {
            guard let event = request.publish else { throw PluginServerError("the \(request.kind.rawValue) request has no publish member") }
            return event
        }
        func unsupported() -> PluginServerError {
            PluginServerError("\(name) does not do \(request.kind.rawValue) (it does: \(kinds.map(\.rawValue).joined(separator: ", ")))")
        }
        switch request.kind {
        case .describe:
            return PluginResponse(description: PluginDescription(
                name: name, version: version, kinds: kinds, summary: summary, options: optionsSchema))
        case .lint:
            guard let linter else { throw unsupported() }
            return PluginResponse(diagnostics: try linter.lint(try catalog(), options: options))
        case .generate:
            guard let generator else { throw unsupported() }
            return PluginResponse(files: try generator.generate(try catalog(), options: options))
        case .prePublish:
            guard let publishHook else { throw unsupported() }
            return PluginResponse(diagnostics: try publishHook.prePublish(try event(), catalog: try catalog(), options: options))
        case .postPublish:
            guard let publishHook else { throw unsupported() }
            return PluginResponse(diagnostics: try publishHook.postPublish(try event(), catalog: try catalog(), options: options))
        }
    }

    /// Answers one request given as JSON bytes with the response's JSON bytes.
    public func respond(toJSON data: Data) throws -> Data {
        let request = try JSONDecoder().decode(PluginRequest.self, from: data)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(try respond(to: request))
    }

    /// Reads the request from standard input, writes the response to standard output and exits: 0 when answered,
    /// 1 (with the reason on standard error) when not.
    public func main() -> Never {
        let input = FileHandle.standardInput.readDataToEndOfFile()
        do {
            let output = try respond(toJSON: input)
            FileHandle.standardOutput.write(output)
            FileHandle.standardOutput.write(Data("\n".utf8))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
            exit(1)
        }
    }
}
