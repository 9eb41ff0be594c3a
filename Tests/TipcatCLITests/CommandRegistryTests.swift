import Foundation
import Testing
import TipcatArguments
@testable import TipcatCLI
import TipcatTestSupport

@Suite struct CommandRegistryTests {
    @Test func theRegistryIsWellFormed() {
        let problems = CommandRegistryValidator.problems(in: CommandRegistry.root)
        #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
    }

    @Test func everyCommandOfTheParserTreeHasARunnerOrChildren() {
        func walk(_ spec: CommandSpec, _ path: [String]) {
            let command = CommandRegistry.root.command(at: path)
            #expect(command != nil, "\(path) is not registered")
            if spec.subcommands.isEmpty { #expect(command?.run != nil, "\(path) has no runner") }
            for child in spec.subcommands { walk(child, path + [child.name]) }
        }
        walk(CommandTree.root, [])
    }

    @Test func theValidatorFindsEachKindOfProblem() {
        let noop: Command.Runner = { _, _ in }
        let bad = Command(group: CommandSpec(name: "tipcat", abstract: "Root."), [
            Command(CommandSpec(name: "a", abstract: "A.", arguments: [
                .option("x", short: "x"), .flag("x"), .flag("y", short: "x"),
                .positional("p", required: false), .positional("q"),
            ], examples: ["a --x 1"]), run: noop),
            Command(CommandSpec(name: "a", abstract: ""), run: noop),
            Command(CommandSpec(name: "b", abstract: "B.", arguments: [
                .positional("r", repeating: true), .positional("s", required: false), .option("t"), .positional("t", required: false),
            ]), run: noop),
            Command(group: CommandSpec(name: "c", abstract: "C.", arguments: [.option("z", short: "z")]), [
                Command(CommandSpec(name: "d", abstract: "D.", arguments: [.flag("z")], subcommands: [CommandSpec(name: "e")]), run: noop),
            ]),
            Command(group: CommandSpec(name: "f", abstract: "F."), []),
        ])
        let messages = CommandRegistryValidator.problems(in: bad).map(\.description)
        let expected = [
            "tipcat a: --x is declared twice",
            "tipcat a: -x is declared twice",
            "tipcat a: the required <q> follows an optional positional",
            "tipcat a: the example 'a --x 1' does not start with 'tipcat '",
            "tipcat: two subcommands are named 'a'",
            "tipcat a: the abstract is empty",
            "tipcat b: <s> follows a repeating positional",
            "tipcat b: <t> follows a repeating positional",
            "tipcat b: the positional <t> has the name of an option",
            "tipcat c d: --z is declared twice",
            "tipcat c d: the spec declares subcommands (e); declare them in the registry with their runners",
            "tipcat f: a leaf command without a runner",
        ]
        for message in expected {
            #expect(messages.contains(message), "missing: \(message)\nall: \(messages)")
        }
        #expect(messages.count == expected.count, "\(messages)")
    }

    @Test func helpJSONDumpsTheWholeTree() throws {
        let result = tipcat("help", "--json")
        #expect(result.status == .success)
        #expect(result.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["serializationVersion"] as? Int == 1)
        let root = try #require(object["command"] as? [String: Any])
        #expect(root["name"] as? String == "tipcat")

        var names: Set<String> = []
        func collect(_ command: [String: Any], _ path: String) {
            let name = command["name"] as? String ?? "?"
            let full = path.isEmpty ? name : path + " " + name
            names.insert(full)
            for child in command["subcommands"] as? [[String: Any]] ?? [] { collect(child, full) }
        }
        collect(root, "")
        func expectedNames(_ spec: CommandSpec, _ path: String) -> [String] {
            let full = path.isEmpty ? spec.name : path + " " + spec.name
            return [full] + spec.subcommands.flatMap { expectedNames($0, full) }
        }
        let expected = Set(expectedNames(CommandTree.root, ""))
        #expect(names == expected)
        #expect(names.contains("tipcat engine donate"))
        #expect(names.contains("tipcat publish"))
    }

    @Test func helpJSONForOneCommand() throws {
        let result = tipcat("help", "validate", "--json")
        #expect(result.status == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let command = try #require(object["command"] as? [String: Any])
        #expect(command["name"] as? String == "validate")
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        let format = try #require(arguments.first { ($0["names"] as? [String])?.first == "--format" })
        #expect(format["kind"] as? String == "option")
        #expect(format["default"] as? String == "text")
        #expect(format["allowed"] as? [String] == ["text", "json", "github"])
        #expect(format["required"] as? Bool == false)
        #expect(format["repeating"] as? Bool == false)
        let strict = try #require(arguments.first { ($0["names"] as? [String])?.first == "--strict" })
        #expect(strict["kind"] as? String == "flag")
        #expect(strict["valueName"] is NSNull)

        let nested = tipcat("help", "engine", "donate", "--json")
        #expect(nested.status == .success)
        #expect(nested.stdout.contains(#""name": "donate""#))
    }

    @Test func helpJSONForAnUnknownCommandIsAUsageError() {
        let result = tipcat("help", "valdate", "--json")
        #expect(result.status == .usage)
        #expect(result.stderr.contains("validate"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aGroupWithoutASubcommandPrintsItsHelp() {
        let result = tipcat("engine")
        #expect(result.status == .success)
        #expect(result.stdout.contains("USAGE: tipcat engine"))
        #expect(result.stdout.contains("donate"))
    }
}
