import Foundation
import Testing
import TipcatTestSupport

/// The example app (Sources/trail-app) links the library products only, and behaves as `make demo` shows.
@Suite struct TrailAppTests {
    static let products = ["TipcatEngine", "TipcatEngineStore", "TipcatEngineBundle"]

    /// In Package.swift the target depends only on library products, and its sources import nothing else
    /// (the C library aside).
    @Test func usesOnlyTheLibraryProducts() throws {
        let manifest = try String(contentsOfFile: repositoryRoot + "/Package.swift", encoding: .utf8)
        let declaredProducts = Set(manifest.matches(of: /\.library\(name: "(\w+)"/).map { String($0.output.1) })
        for product in Self.products { #expect(declaredProducts.contains(product), "\(product) is not a library product") }
        let target = try #require(manifest.firstMatch(of: /name: "trail-app", dependencies: \[([^\]]*)\]/))
        let dependencies = target.output.1.matches(of: /"(\w+)"/).map { String($0.output.1) }
        #expect(dependencies == Self.products)
        #expect(Set(dependencies).isSubset(of: declaredProducts))

        let directory = repositoryRoot + "/Sources/trail-app"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let source = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            let imports = source.matches(of: /(?m)^\s*(?:@\w+\s+)?(?:public |internal |package )?import\s+(\w+)/).map { String($0.output.1) }
            for module in imports {
                #expect((Self.products + ["Glibc", "Musl", "Darwin"]).contains(module), "\(file) imports \(module)")
            }
        }
    }

    /// Two runs over one state file: the first shows HighlightTip; the second closes it, has four visits
    /// stored, and shows FavoriteBackyardTip (its rule wants three).
    @Test func persistsStateAcrossRuns() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        #expect(tipcat(["export", "--store", store, "-o", scratch.file("tips.bundle.json")]).status == .success)
        let executable = try #require(tipcatExecutable().map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("trail-app").path })
        #expect(FileManager.default.isExecutableFile(atPath: executable), "build trail-app first (swift build)")
        func launch(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: scratch.path)
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let output = out.fileHandleForReading.readDataToEndOfFile()
            let errors = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
        }
        let first = try launch(["--bundle", "tips.bundle.json", "--state", "trail.sqlite", "--now", "2026-01-05T08:00:00Z"])
        #expect(first.status == 0, "\(first.err)")
        let device = try #require(first.out.firstMatch(of: /device ([0-9a-f]{16}):/)).output.1
        #expect(first.out == """
            device \(device): 2 visits to backyard 3 stored in trail.sqlite
            showing HighlightTip (display 1)

            """)
        let second = try launch(["--bundle", "tips.bundle.json", "--state", "trail.sqlite", "--now", "2026-01-05T09:00:00Z"])
        #expect(second.out == """
            the user closed HighlightTip
            device \(device): 4 visits to backyard 3 stored in trail.sqlite
            showing FavoriteBackyardTip (display 1)

            """)

        let bad = try launch(["--bundle", "missing.json", "--state", "trail.sqlite"])
        #expect(bad.status == 1)
        #expect(bad.err == "trail-app: error: missing.json: no such file (the bundle)\n")
        let usage = try launch(["--bundle", "tips.bundle.json", "--now", "soon"])
        #expect(usage.status == 64)
        #expect(usage.err == "trail-app: error: --now takes an ISO 8601 time such as 2026-01-05T08:00:00Z, not 'soon'\n")
    }
}
