public import TipcatCore
public import TipcatTemplates
public import TipcatCatalog

/// A loaded style: its manifest, its parsed `tip.mustache` and where its partials come from.
public struct Style: Sendable {
    /// Where a style was found.
    public enum Origin: Sendable, Hashable {
        /// Compiled into tipcat (the copies of `Templates/plain`, `markdown`, `ansi`).
        case builtIn
        /// A folder `Templates/<name>/`.
        case directory(String)
    }

    public var manifest: StyleManifest
    public var origin: Origin
    public var template: Template
    public var partials: any PartialResolver
    /// The main template's text, for `tipcat template cat`.
    public var templateSource: String
    /// The style's `tip.css`, when it has one: the style sheet a page showing its HTML output uses
    /// (`tipcat preview`).
    public var stylesheet: String?

    public var name: String { manifest.name }

    /// Where `tip.mustache` is, for `tipcat template which` (`built-in:plain/tip.mustache` for built-ins).
    public var templatePath: String {
        switch origin {
        case .builtIn: "built-in:\(manifest.name)/\(Style.templateFile)"
        case .directory(let path): path + "/" + Style.templateFile
        }
    }

    public static let templateFile = "tip.mustache"
    public static let manifestFile = "style.json"
    public static let stylesheetFile = "tip.css"
}

/// Why a style cannot be used.
public struct StyleError: TipcatError, Sendable, CustomStringConvertible {
    public var message: String
    public var diagnostics: [Diagnostic]
    public var description: String { message }
}

/// Every style tipcat knows: built-ins, overridden or extended by the folders of a templates directory.
///
/// A style is a folder `Templates/<name>/` holding `style.json` and `tip.mustache` (plus partials, which
/// resolve only inside that folder). Adding a folder adds a style; no code changes.
public struct StyleRegistry: Sendable {
    public private(set) var styles: [Style]
    /// Problems with style folders that could not be loaded (each is skipped).
    public private(set) var diagnostics: [Diagnostic]

    /// Loads the built-in styles, then every folder of `directory` (when it exists); a folder with the name of a
    /// built-in style replaces it.
    public init(directory: String?, fileSystem: any CatalogFileSystem = DiskFileSystem()) {
        var byName: [String: Style] = [:]
        var diagnostics: [Diagnostic] = []
        for (name, files) in BuiltinStyles.files {
            if let style = StyleRegistry.builtIn(name: name, files: files) { byName[style.name] = style }
        }
        if let directory, fileSystem.isDirectory(directory) {
            for folder in (fileSystem.list(directory) ?? []).sorted() where !folder.hasPrefix(".") {
                let path = directory.hasSuffix("/") ? directory + folder : directory + "/" + folder
                guard fileSystem.isDirectory(path) else { continue }
                guard fileSystem.resolves(path, inside: directory) else {
                    diagnostics.append(Diagnostic(
                        "the style folder is a symbolic link to '\(fileSystem.realPath(path) ?? path)', outside '\(directory)'; a style's files must be inside the templates folder",
                        rule: .invalidStyle, at: SourceLocation(file: path + "/", line: 1, column: 1)))
                    continue
                }
                switch StyleRegistry.load(folder: path, fileSystem: fileSystem) {
                case .success(let style): byName[style.name] = style
                case .failure(let error): diagnostics += error.diagnostics
                }
            }
        }
        self.styles = byName.values.sorted { $0.name < $1.name }
        self.diagnostics = diagnostics
    }

    /// The style called `name`, or an error listing the styles there are (with a did-you-mean).
    public func style(named name: String) throws(StyleError) -> Style {
        if let style = styles.first(where: { $0.name == name }) { return style }
        let broken = diagnostics.filter { $0.location?.file.contains("/\(name)/") == true }
        if !broken.isEmpty {
            throw StyleError(message: "style '\(name)' has errors", diagnostics: broken)
        }
        let names = styles.map(\.name)
        throw StyleError(
            message: "unknown style '\(name)'" + Suggestions.didYouMean(name, in: names)
                + "; available: \(names.joined(separator: ", ")) (add one as a folder in Templates/)",
            diagnostics: [])
    }

    private static func builtIn(name: String, files: [String: String]) -> Style? {
        guard let manifestText = files[Style.manifestFile], let templateText = files[Style.templateFile],
              let manifest = StyleManifest.parse(SourceFile(path: "built-in:\(name)/style.json", text: manifestText)).manifest,
              let template = try? Template(templateText, name: "built-in:\(name)/\(Style.templateFile)")
        else { return nil }
        var partials: [String: Template] = [:]
        for (file, text) in files where file.hasSuffix(".mustache") && file != Style.templateFile {
            let partialName = String(file.dropLast(".mustache".count))
            if let partial = try? Template(text, name: "built-in:\(name)/\(file)") { partials[partialName] = partial }
        }
        return Style(manifest: manifest, origin: .builtIn, template: template, partials: DictionaryPartialResolver(partials),
                     templateSource: templateText, stylesheet: files[Style.stylesheetFile])
    }

    private static func load(folder: String, fileSystem: any CatalogFileSystem) -> Result<Style, StyleError> {
        let manifestPath = folder + "/" + Style.manifestFile
        let templatePath = folder + "/" + Style.templateFile
        func fail(_ message: String, _ diagnostics: [Diagnostic]) -> Result<Style, StyleError> {
            .failure(StyleError(message: message, diagnostics: diagnostics))
        }
        let stylesheetPath = folder + "/" + Style.stylesheetFile
        for file in [manifestPath, templatePath, stylesheetPath] where fileSystem.fileExists(file) && !fileSystem.resolves(file, inside: folder) {
            return fail("\(file) is outside its style folder", [Diagnostic(
                "'\(file)' is a symbolic link to '\(fileSystem.realPath(file) ?? file)', outside the style folder; a style's files must be inside it",
                rule: .invalidStyle, at: SourceLocation(file: file, line: 1, column: 1))])
        }
        let manifestBytes: [UInt8]
        do { manifestBytes = try fileSystem.read(manifestPath) } catch {
            return fail("cannot read \(manifestPath)", [Diagnostic("a style folder needs style.json: \(error.reason)", rule: .invalidStyle,
                                                              at: SourceLocation(file: manifestPath, line: 1, column: 1))])
        }
        let (manifest, manifestDiagnostics) = StyleManifest.parse(SourceFile(path: manifestPath, bytes: manifestBytes))
        guard let manifest else { return fail("invalid \(manifestPath)", manifestDiagnostics) }
        let templateBytes: [UInt8]
        do { templateBytes = try fileSystem.read(templatePath) } catch {
            return fail("cannot read \(templatePath)", [Diagnostic("a style folder needs tip.mustache: \(error.reason)", rule: .invalidStyle,
                                                              at: SourceLocation(file: templatePath, line: 1, column: 1))])
        }
        let stylesheet = fileSystem.fileExists(stylesheetPath) ? (try? fileSystem.read(stylesheetPath)).map { String(decoding: $0, as: UTF8.self) } : nil
        do {
            let template = try Template(bytes: templateBytes, name: templatePath)
            return .success(Style(
                manifest: manifest, origin: .directory(folder), template: template,
                partials: DirectoryPartialResolver(root: folder), templateSource: String(decoding: templateBytes, as: UTF8.self),
                stylesheet: stylesheet))
        } catch {
            return fail("invalid \(templatePath)", [error.diagnostic])
        }
    }
}
