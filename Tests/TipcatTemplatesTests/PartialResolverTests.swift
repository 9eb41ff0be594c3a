import Foundation
import Testing
import TipcatCore
import TipcatTemplates

/// A temporary folder of partial files, removed at the end of the test.
final class PartialsFolder {
    let root: URL

    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-partials-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}

@Suite struct PartialNameTests {
    @Test(arguments: [
        ("../secret", PartialNameError.Reason.parentDirectory),
        ("..", .parentDirectory),
        ("a/../../b", .parentDirectory),
        ("a/..", .parentDirectory),
        ("/etc/passwd", .absolutePath),
        ("//server/share", .absolutePath),
        ("a\u{0}b", .nulByte),
        ("..\\..\\windows", .backslash),
        ("a\\b", .backslash),
        ("", .empty),
        ("a//b", .emptyComponent),
        ("a/", .emptyComponent),
        ("./a", .currentDirectory),
        ("a/./b", .currentDirectory),
        ("a\nb", .controlCharacter),
    ])
    func refusesNamesThatCouldLeaveTheFolder(_ name: String, _ reason: PartialNameError.Reason) throws {
        #expect(throws: PartialNameError(name: name, reason: reason)) {
            try PartialNameError.validate(name)
        }
        let resolver = DirectoryPartialResolver(root: "/tmp/does-not-matter")
        #expect(throws: PartialNameError(name: name, reason: reason)) {
            try resolver.template(named: name)
        }
    }

    @Test(arguments: ["header", "emails/footer", "a.b", "..a", "a..", "déjà-vu", "x/y/z"])
    func acceptsPlainRelativeNames(_ name: String) throws {
        try PartialNameError.validate(name)
        #expect(try DirectoryPartialResolver(root: "root").path(for: name) == "root/\(name).mustache")
    }

    @Test func errorTextExplainsTheRefusal() {
        let error = PartialNameError(name: "../x", reason: .parentDirectory)
        #expect(error.description == "refused partial name '../x': '..' would leave the partials folder")
    }
}

@Suite struct DirectoryPartialResolverTests {
    @Test func loadsPartialsAndSubfolders() throws {
        let folder = try PartialsFolder([
            "header.mustache": "# {{title}}\n",
            "emails/footer.mustache": "-- {{sender}}",
        ])
        let resolver = DirectoryPartialResolver(root: folder.root.path)
        let template = try Template("{{>header}}\nbody\n{{>emails/footer}}")
        let output = try template.render(["title": "Hi", "sender": "Ada"], partials: resolver, options: .strict(escaper: NoEscaper()))
        #expect(output == "# Hi\nbody\n-- Ada")
    }

    /// A resolver reads each partial once (a render of thousands of tips does not read it thousands of times);
    /// a new resolver reads the file again.
    @Test func eachResolverReadsAPartialOnce() throws {
        let folder = try PartialsFolder(["p.mustache": "one"])
        let resolver = DirectoryPartialResolver(root: folder.root.path)
        let template = try Template("{{>p}}")
        #expect(try template.render([:], partials: resolver) == "one")
        try Data("two".utf8).write(to: folder.root.appendingPathComponent("p.mustache"))
        #expect(try template.render([:], partials: resolver) == "one")
        #expect(try template.render([:], partials: DirectoryPartialResolver(root: folder.root.path)) == "two")
        #expect(resolver == DirectoryPartialResolver(root: folder.root.path))
    }

    @Test func missingFileIsAMissingPartial() throws {
        let folder = try PartialsFolder(["a.mustache": "A"])
        let resolver = DirectoryPartialResolver(root: folder.root.path)
        #expect(try resolver.template(named: "nope") == nil)
        #expect(try resolver.template(named: "a/nope") == nil)  // "a" is not a folder
        let template = try Template("[{{>nope}}]", name: "page")
        #expect(try template.render([:], partials: resolver) == "[]")
        #expect(try renderError(template, partials: resolver, options: .strict(escaper: NoEscaper())).kind == .missingPartial(name: "nope"))
    }

    @Test func aFolderWhereAFileShouldBeIsAnError() throws {
        let folder = try PartialsFolder(["dir.mustache/inner.mustache": "x"])
        let resolver = DirectoryPartialResolver(root: folder.root.path)
        #expect(throws: PartialFileError.self) { try resolver.template(named: "dir") }
        let error = try renderError(try Template("{{>dir}}", name: "page"), partials: resolver)
        guard case .partialFailed(let name, let detail) = error.kind else {
            Issue.record("expected partialFailed, got \(error)")
            return
        }
        #expect(name == "dir")
        #expect(detail.hasSuffix("not a regular file"))
        #expect(error.location == SourceLocation(file: "page", line: 1, column: 1))
    }

    @Test func tooLargeFilesAreRefused() throws {
        let folder = try PartialsFolder(["big.mustache": String(repeating: "x", count: 100)])
        let resolver = DirectoryPartialResolver(root: folder.root.path, maximumFileSize: 10)
        #expect(throws: PartialFileError.self) { try resolver.template(named: "big") }
    }

    @Test func parseErrorsPointIntoThePartialFile() throws {
        let folder = try PartialsFolder(["card.mustache": "ok\n  {{/x}}"])
        let resolver = DirectoryPartialResolver(root: folder.root.path)
        let error = try renderError(try Template("{{>card}}"), partials: resolver)
        #expect(error.location == SourceLocation(file: folder.root.path + "/card.mustache", line: 2, column: 3))
        #expect(error.kind == .unexpectedClosingTag(tag: "{{/x}}"))
    }

    @Test(arguments: ["../secret", "/etc/passwd", "a/../../secret"])
    func traversalThroughTemplatesIsRefusedWithTheTagLocation(_ name: String) throws {
        let folder = try PartialsFolder(["inside/ok.mustache": "ok"])
        // A file the traversal would reach if it were allowed.
        try Data("SECRET".utf8).write(to: folder.root.appendingPathComponent("secret.mustache"))
        let resolver = DirectoryPartialResolver(root: folder.root.appendingPathComponent("inside").path)
        let template = try Template("line\n  {{>\(name)}}", name: "page")
        let error = try renderError(template, partials: resolver)
        guard case .unsafePartialName(let refused, _) = error.kind else {
            Issue.record("expected unsafePartialName, got \(error)")
            return
        }
        #expect(refused == name)
        #expect(error.location == SourceLocation(file: "page", line: 2, column: 3))
        #expect(try template.render([:], partials: DictionaryPartialResolver()) == "line\n")
    }

    @Test func traversalThroughDynamicNamesIsRefused() throws {
        // The name comes from data here, the likeliest way for an attacker to choose it.
        let folder = try PartialsFolder(["ok.mustache": "ok"])
        let resolver = DirectoryPartialResolver(root: folder.root.path)
        let template = try Template("{{>*kind}}", name: "page")
        #expect(try template.render(["kind": "ok"], partials: resolver) == "ok")
        for name in ["../../etc/passwd", "/etc/passwd", "x\u{0}y", "a\\b"] {
            let error = try renderError(template, ["kind": .string(name)], partials: resolver)
            guard case .unsafePartialName(let refused, _) = error.kind else {
                Issue.record("expected unsafePartialName for \(name), got \(error)")
                continue
            }
            #expect(refused == name)
        }
    }

    @Test func partialsAreResolvedOncePerRender() throws {
        struct CountingResolver: PartialResolver {
            let calls: Counter
            func template(named name: String) throws -> Template? {
                _ = calls.next()
                return try Template("<{{.}}>", name: name)
            }
        }
        let calls = Counter()
        let template = try Template("{{#items}}{{>item}}{{/items}}")
        let output = try template.render(["items": [1, 2, 3]], partials: CountingResolver(calls: calls))
        #expect(output == "<1><2><3>")
        #expect(calls.next() == 2)
    }
}
