import Foundation
import Testing
import TipcatArguments

/// A tree whose texts are full of shell metacharacters; its scripts must stay valid and inert.
enum AwkwardTree {
    static let marker = "tipcat-injection-marker"
    static let root = CommandSpec(
        name: "tipcat",
        abstract: "It's \"quoted\" $(touch \(marker)) `touch \(marker)` [brackets]: colons\\",
        arguments: [
            .option("mode", help: "Mode's [help]: $(touch \(marker)); `touch \(marker)`\nsecond line",
                    allowed: ["it's", "two words", "$(touch \(marker))", "a:b", "(paren)"]),
            .option("dynamic", help: "Values from a command.", completion: .shellCommand("printf 'alpha\\nbeta\\n'")),
            .option("odd-ext", completion: .file(extensions: ["json'; touch \(marker); '", ".md"])),
            .positional("thing", help: "A thing's name.", required: false, completion: .list(["x y", "z'z"])),
        ],
        subcommands: [
            CommandSpec(name: "it's", abstract: "An 'odd' name; $(touch \(marker))"),
            CommandSpec(name: "a:b", abstract: "Colon [name]"),
        ],
        version: "1")
}

@Suite struct CompletionScriptTests {
    static func sample(_ shell: Shell) -> String { CompletionScript.generate(for: SampleTree.root, shell: shell) }
    static func awkward(_ shell: Shell) -> String { CompletionScript.generate(for: AwkwardTree.root, shell: shell) }

    // MARK: Syntax

    @Test(.enabled(if: ShellRunner.hasBash)) func bashScriptIsSyntacticallyValid() throws {
        for script in [Self.sample(.bash), Self.awkward(.bash)] {
            let fixture = try ShellRunner.fixture(script: script, shell: "bash")
            defer { fixture.remove() }
            let result = try ShellRunner.run("bash", ["-n", fixture.script.path])
            #expect(result.status == 0, "\(result.errors)")
        }
    }

    @Test(.enabled(if: ShellRunner.hasZsh)) func zshScriptIsSyntacticallyValid() throws {
        for script in [Self.sample(.zsh), Self.awkward(.zsh)] {
            let fixture = try ShellRunner.fixture(script: script, shell: "zsh")
            defer { fixture.remove() }
            let result = try ShellRunner.run("zsh", ["-n", fixture.script.path])
            #expect(result.status == 0, "\(result.errors)")
        }
    }

    @Test(.enabled(if: ShellRunner.hasFish)) func fishScriptIsSyntacticallyValid() throws {
        for script in [Self.sample(.fish), Self.awkward(.fish)] {
            let fixture = try ShellRunner.fixture(script: script, shell: "fish")
            defer { fixture.remove() }
            let result = try ShellRunner.run("fish", ["--no-execute", fixture.script.path])
            #expect(result.status == 0, "\(result.errors)")
        }
    }

    @Test(.enabled(if: ShellRunner.hasBash)) func syntaxCheckRejectsABrokenScript() throws {
        // Guards the syntax tests above: a truncated script must fail the same check.
        let broken = String(Self.sample(.bash).dropLast(40))
        let fixture = try ShellRunner.fixture(script: broken, shell: "bash")
        defer { fixture.remove() }
        #expect(try ShellRunner.run("bash", ["-n", fixture.script.path]).status != 0)
    }

    // MARK: Behaviour in bash

    /// Completes each command line (words separated by single spaces; the last word is being completed).
    func bashCompletions(_ script: String, _ lines: [String]) throws -> [[String]] {
        let fixture = try ShellRunner.fixture(script: script, shell: "bash")
        defer { fixture.remove() }
        var program = "source \(fixture.script.path)\n"
        for line in lines {
            let words = line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }.joined(separator: " ")
            program += "COMP_WORDS=(\(words)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _tipcat; "
            program += "printf '%s|' \"${COMPREPLY[@]}\"; echo\n"
        }
        let result = try ShellRunner.run("bash", ["-c", program], in: fixture.directory)
        #expect(result.status == 0, "\(result.errors)")
        return result.output.split(separator: "\n", omittingEmptySubsequences: false).prefix(lines.count).map {
            $0.split(separator: "|").map(String.init).sorted()
        }
    }

    @Test(.enabled(if: ShellRunner.hasBash)) func bashCompletesSubcommandsOptionsAndValues() throws {
        let results = try bashCompletions(Self.sample(.bash), [
            "tipcat ",
            "tipcat v",
            "tipcat engine ",
            "tipcat -q engine d",
            "tipcat validate --f",
            "tipcat validate --format ",
            "tipcat validate -f j",
            "tipcat validate --format = ",
            "tipcat validate --catalog ",
            "tipcat engine donate --catalog-file ",
            "tipcat engine donate --catalog-file sub/",
            "tipcat help ",
            "tipcat validate --format json --s",
        ])
        #expect(results == [
            ["engine", "help", "validate"],
            ["validate"],
            ["donate"],
            ["donate"],
            ["--format"],
            ["github", "json", "text"],
            ["json"],
            ["github", "json", "text"],
            ["sub"],
            ["a.json", "c.xcstrings", "sub"],
            ["sub/x.json"],
            ["engine", "validate"],
            ["--strict"],
        ])
    }

    @Test(.enabled(if: ShellRunner.hasBash)) func bashHandlesAwkwardTextsWithoutRunningThem() throws {
        let results = try bashCompletions(Self.awkward(.bash), [
            "tipcat --mode ", "tipcat --dynamic ", "tipcat ",
        ])
        #expect(results.first == ["$(touch \(AwkwardTree.marker))", "(paren)", "a:b", "it's", "two words"])
        #expect(results.dropFirst().first == ["alpha", "beta"])
        #expect(results.last == ["a:b", "help", "it's", "x y", "z'z"])
    }

    // MARK: Behaviour in fish

    func fishCompletions(_ script: String, _ line: String) throws -> [String] {
        let fixture = try ShellRunner.fixture(script: script, shell: "fish")
        defer { fixture.remove() }
        let escaped = line.replacingOccurrences(of: "'", with: "\\'")
        let result = try ShellRunner.run("fish", ["-c", "source \(fixture.script.path); complete -C '\(escaped)'"], in: fixture.directory)
        #expect(result.status == 0, "\(result.errors)")
        return result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
    }

    @Test(.enabled(if: ShellRunner.hasFish)) func fishCompletesSubcommandsOptionsAndValues() throws {
        let script = Self.sample(.fish)
        #expect(try fishCompletions(script, "tipcat ") == ["engine", "help", "validate"])
        #expect(try fishCompletions(script, "tipcat -q engine ") == ["donate"])
        #expect(try fishCompletions(script, "tipcat validate --f") == ["--format"])
        #expect(try fishCompletions(script, "tipcat validate --format ") == ["github", "json", "text"])
        #expect(try fishCompletions(script, "tipcat validate --catalog ") == ["sub/"])
        #expect(try fishCompletions(script, "tipcat engine donate --catalog-file ") == ["a.json", "c.xcstrings", "sub/"])
        #expect(try fishCompletions(script, "tipcat help ") == ["engine", "validate"])
    }

    @Test(.enabled(if: ShellRunner.hasFish)) func fishHandlesAwkwardTextsWithoutRunningThem() throws {
        let script = Self.awkward(.fish)
        #expect(try fishCompletions(script, "tipcat --mode ") == ["$(touch \(AwkwardTree.marker))", "(paren)", "a:b", "it's", "two words"])
        #expect(try fishCompletions(script, "tipcat --dynamic ") == ["alpha", "beta"])
    }

    @Test(.enabled(if: ShellRunner.hasBash && ShellRunner.hasFish)) func awkwardTextsAreNeverExecuted() throws {
        let bash = try ShellRunner.fixture(script: Self.awkward(.bash), shell: "bash")
        defer { bash.remove() }
        _ = try ShellRunner.run("bash", ["-c", "source \(bash.script.path); COMP_WORDS=(tipcat --odd-ext ''); COMP_CWORD=2; _tipcat; COMP_WORDS=(tipcat ''); COMP_CWORD=1; _tipcat"], in: bash.directory)
        #expect(!FileManager.default.fileExists(atPath: bash.directory.appendingPathComponent(AwkwardTree.marker).path))
        let fish = try ShellRunner.fixture(script: Self.awkward(.fish), shell: "fish")
        defer { fish.remove() }
        _ = try ShellRunner.run("fish", ["-c", "source \(fish.script.path); complete -C 'tipcat --odd-ext '; complete -C 'tipcat '"], in: fish.directory)
        #expect(!FileManager.default.fileExists(atPath: fish.directory.appendingPathComponent(AwkwardTree.marker).path))
    }

    // MARK: Content

    @Test func scriptsCoverVisibleCommandsAndOptionsOnly() {
        for shell in Shell.allCases {
            let script = Self.sample(shell)
            for word in ["validate", "engine", "donate", "catalog", "format", "strict", "catalog-file", "width", "version", "help"] {
                #expect(script.contains(word), "\(shell) script lacks \(word)")
            }
            #expect(!script.contains("secret"), "\(shell) script lists a hidden command")
            #expect(!script.contains("debug-internals"), "\(shell) script lists a hidden option")
        }
    }

    @Test func scriptsRegisterForTheRootCommand() {
        #expect(Self.sample(.bash).hasSuffix("complete -F _tipcat 'tipcat'\n"))
        #expect(Self.sample(.zsh).hasPrefix("#compdef tipcat\n"))
        #expect(Self.sample(.zsh).contains("compdef _tipcat 'tipcat'"))
        #expect(Self.sample(.fish).contains("complete -c 'tipcat' -f\n"))
    }

    @Test func zshDescribesSubcommandsAndOptionValues() {
        let script = Self.sample(.zsh)
        #expect(script.contains("'validate:Check a catalog and report every problem.'"))
        #expect(script.contains("'(--format -f)--format=[The output format.]:format:(text json github)'"))
        #expect(script.contains("'(--catalog)--catalog=[The catalog directory.]:dir:_files -/'"))
        #expect(script.contains(":file:_files -g \"*.(json|xcstrings)\"'"))
        #expect(script.contains("'donate') _tipcat_engine_donate && ret=0 ;;"))
    }

    @Test func shellNamesAreTheirRawValues() {
        #expect(Shell.allCases.map(\.rawValue) == ["bash", "zsh", "fish"])
        #expect(Shell(rawValue: "tcsh") == nil)
    }
}
