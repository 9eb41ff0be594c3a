import Foundation
import Testing
@testable import TipcatCLI
import TipcatTestSupport

/// `tipcat foo …` runs `tipcat-foo` from PATH when `foo` is not a built-in command.
@Suite struct ExternalCommandTests {
    /// A directory holding executable `tipcat-*` scripts, and an environment whose PATH is only that directory
    /// (plus the system directories the scripts' interpreter needs).
    final class Plugins {
        let directory: TemporaryDirectory
        var path: String { directory.path + "/bin" }
        var environment: [String: String] { ["PATH": path + ":/usr/bin:/bin"] }

        init() throws { directory = try TemporaryDirectory() }

        @discardableResult
        func script(_ name: String, _ body: String, executable: Bool = true) throws -> String {
            try directory.write("bin/" + name, "#!/bin/sh\n" + body + "\n")
            let file = path + "/" + name
            try FileManager.default.setAttributes([.posixPermissions: executable ? 0o755 : 0o644], ofItemAtPath: file)
            return file
        }
    }

    @Test func argumentsAndOutputAreForwarded() throws {
        let plugins = try Plugins()
        try plugins.script("tipcat-hello", #"printf 'hello %s|' "$@"; echo; echo "to stderr" >&2"#)
        let result = tipcat(["hello", "a b", "--flag", "c"], environment: plugins.environment)
        #expect(result.status == .success)
        #expect(result.stdout == "hello a b|hello --flag|hello c|\n")
        #expect(result.stderr == "to stderr\n")
    }

    @Test func theExitStatusIsForwarded() throws {
        let plugins = try Plugins()
        try plugins.script("tipcat-fail", "exit 3")
        #expect(tipcat(["fail"], environment: plugins.environment).status.rawValue == 3)
    }

    @Test func aSignalDeathIs128PlusTheSignal() throws {
        let plugins = try Plugins()
        try plugins.script("tipcat-die", "kill -KILL $$")
        #expect(tipcat(["die"], environment: plugins.environment).status.rawValue == 128 + 9)
    }

    @Test func aChattyChildDoesNotDeadlock() throws {
        let plugins = try Plugins()
        // 1 MiB on each stream: far more than a pipe buffer holds.
        try plugins.script("tipcat-chatty", "head -c 1048576 /dev/zero | tr '\\\\0' o; head -c 1048576 /dev/zero | tr '\\\\0' e >&2")
        let result = tipcat(["chatty"], environment: plugins.environment)
        #expect(result.status == .success, "\(result.stderr.prefix(300))")
        #expect(result.stdout.utf8.count == 1_048_576)
        #expect(result.stderr.utf8.count == 1_048_576)
    }

    @Test func anUnknownCommandWithoutAnExecutableIsAUsageErrorWithASuggestion() throws {
        let plugins = try Plugins()
        let result = tipcat(["valdate"], environment: plugins.environment)
        #expect(result.status == .usage)
        #expect(result.stderr.contains("validate"), "\(result.stderr)")
    }

    @Test func builtInCommandsWin() throws {
        let plugins = try Plugins()
        try plugins.script("tipcat-plural", "echo external; exit 9")
        let result = tipcat(["plural", "en", "1"], environment: plugins.environment)
        #expect(result.status == .success)
        #expect(!result.stdout.contains("external"))
    }

    @Test func namesThatAreNotPlainWordsAreNeverExecuted() throws {
        let plugins = try Plugins()
        let marker = plugins.directory.path + "/ran"
        let body = "touch '\(marker)'"
        try plugins.script("tipcat-", body)
        try plugins.script("tipcat-.hidden", body)
        try plugins.script("tipcat-Upper", body)
        try plugins.directory.write("bin/tipcat-sub/x", "")
        try plugins.script("tipcat-sub/tipcat-x", body)
        try plugins.script("evil", body)
        for name in ["../bin/evil", "/bin/evil", "sub/x", "sub/tipcat-x", "..", ".hidden", "Upper", "-x", ""] {
            let result = tipcat([name], environment: plugins.environment)
            #expect(result.status == .usage, "\(name): \(result.status)")
        }
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(ExternalCommands.executable(named: "../bin/evil", environment: plugins.environment) == nil)
    }

    @Test func discoverListsEachExecutableOnceInPathOrder() throws {
        let first = try Plugins()
        let second = try Plugins()
        let hello = try first.script("tipcat-hello", "exit 0")
        try second.script("tipcat-hello", "exit 1")
        let world = try second.script("tipcat-world", "exit 0")
        try first.script("tipcat-notes", "exit 0", executable: false)
        try first.script("tipcat-Bad", "exit 0")
        try first.script("other", "exit 0")
        try FileManager.default.createDirectory(atPath: first.path + "/tipcat-dir", withIntermediateDirectories: true)
        let environment = ["PATH": first.path + "::" + second.path + ":/nonexistent"]
        let found = ExternalCommands.discover(environment: environment)
        #expect(found.map(\.name) == ["hello", "world"])
        #expect(found.map(\.path) == [hello, world])
        #expect(ExternalCommands.discover(environment: [:]).isEmpty)
    }
}
