import Foundation
import Testing
@testable import TipcatCLI

/// A misbehaving plugin gives one clear diagnostic naming it, a non-zero exit, and never a crash, a hang or a
/// partial write.
@Suite("Plugin isolation")
struct IsolationTests {
    private func validate(_ plugin: [String: Any]) throws -> PluginRun {
        let sandbox = try PluginSandbox(plugins: [plugin])
        return sandbox.run("validate", "--catalog", sandbox.catalog)
    }

    @Test func hangingPluginIsKilledAtItsTimeout() throws {
        let start = Date()
        let run = try validate(fixture("sleepy", script: "hang.sh", timeout: "1s"))
        let elapsed = Date().timeIntervalSince(start)
        #expect(run.status == .failure)
        #expect(run.stdout.contains("plugin 'sleepy' timed out after 1 s and was killed"))
        #expect(run.stdout.contains("plugins.json:"))
        #expect(run.stdout.contains("[plugin-failed]"))
        #expect(elapsed < 8, "the timeout (and its background child) must not hold validate for \(elapsed) s")
    }

    @Test func crashingPluginIsReportedWithItsSignalAndStderr() throws {
        let run = try validate(fixture("crashy", script: "crash.sh"))
        #expect(run.status == .failure)
        #expect(run.stdout.contains("plugin 'crashy' was killed by signal 11 (SIGSEGV)"))
        #expect(run.stdout.contains("about to crash"))
    }

    @Test func nonZeroExitIsReportedWithTheTailOfStderr() throws {
        let run = try validate(fixture("grumpy", script: "exit3.sh"))
        #expect(run.status == .failure)
        #expect(run.stdout.contains("plugin 'grumpy' exited with status 3; its stderr ends: first line of trouble | the database is on fire"))
    }

    @Test func invalidJSONIsLocatedInTheAnswer() throws {
        let run = try validate(fixture("noisy", script: "garbage.sh"))
        #expect(run.status == .failure)
        #expect(run.stdout.contains("plugin 'noisy' answered invalid JSON (line 1, column"))
    }

    @Test func hundredMegabytesAreRefused() throws {
        let run = try validate(fixture("chatty", script: "huge.sh", timeout: "30s"))
        #expect(run.status == .failure)
        #expect(run.stdout.contains("plugin 'chatty' answered more than 64 MiB and was killed"))
    }

    @Test func anotherProtocolVersionIsRefused() throws {
        let run = try validate(fixture("future", script: "wrong-protocol.sh"))
        #expect(run.status == .failure)
        #expect(run.stdout.contains("plugin 'future' speaks tipcat.plugin/2; tipcat speaks tipcat.plugin/1"))
    }

    @Test func silenceIsAFailure() throws {
        let run = try validate(fixture("mute", script: "silent.sh"))
        #expect(run.status == .failure)
        #expect(run.stdout.contains("plugin 'mute' exited without answering"))
    }

    @Test func missingProgramIsAFailureNamingThePlugin() throws {
        let run = try validate(["name": "ghost", "kinds": ["lint"]])
        #expect(run.status == .failure)
        #expect(run.stdout.contains("plugin 'ghost' cannot start: plugin 'ghost' has no 'command' and no executable 'tipcat-plugin-ghost' is on PATH"))
    }

    @Test func pointersThatDoNotExistAreErrors() throws {
        let run = try validate(fixture("lost", script: "bad-pointer.sh"))
        #expect(run.status == .failure)
        let lines = run.stdout.split(separator: "\n").filter { $0.contains("[plugin-bad-location]") }
        #expect(lines.count == 4)
        #expect(run.stdout.contains("pointer '/nope' names 'nope', which is not a key there"))
        #expect(run.stdout.contains("there is no file 'tips/Missing.json' in the catalog"))
        #expect(run.stdout.contains("file '../outside.json' is not a path inside the catalog"))
        #expect(run.stdout.contains("there is no line 999"))
    }

    @Test func escapesInMessagesRuleIdsAndStderrNeverReachTheTerminal() throws {
        let sandbox = try PluginSandbox(plugins: [fixture("evil", script: "escapes.sh")])
        for format in ["text", "github", "json"] {
            let run = sandbox.run("validate", "--catalog", sandbox.catalog, "--format", format)
            #expect(!hasControlCharacters(run.stdout), "\(format): \(run.stdout.debugDescription)")
            #expect(!hasControlCharacters(run.stderr))
            #expect(run.stdout.contains("evil/evil--31m"))
            #expect(run.stdout.contains("alert"))
        }
        let failing = try PluginSandbox(plugins: [fixture("evil", script: "escapes.sh"), fixture("grumpy", script: "exit3.sh")])
        let run = failing.run("validate", "--catalog", failing.catalog)
        #expect(!hasControlCharacters(run.all))
    }

    @Test func noPluginsSkipsExternalPlugins() throws {
        let sandbox = try PluginSandbox(plugins: [fixture("grumpy", script: "exit3.sh")])
        let run = sandbox.run("validate", "--catalog", sandbox.catalog, "--no-plugins")
        #expect(run.status == .success)
        #expect(!run.all.contains("grumpy"))
    }

    @Test func severalPluginsRunConcurrently() throws {
        // Two plugins that each take 2 s: together about 2 s, where one after the other would take 4 s (the margin
        // leaves room for a busy machine).
        let sandbox = try PluginSandbox(plugins: [
            fixture("slow-a", script: "hang.sh", timeout: "2s"), fixture("slow-b", script: "hang.sh", timeout: "2s"),
        ])
        let start = Date()
        let run = sandbox.run("validate", "--catalog", sandbox.catalog)
        #expect(Date().timeIntervalSince(start) < 3.5)
        #expect(run.stdout.contains("plugin 'slow-a' timed out"))
        #expect(run.stdout.contains("plugin 'slow-b' timed out"))
    }
}
