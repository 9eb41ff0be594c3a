import TipcatArguments

/// Parses and returns the arguments of a `.run` result, or nil for any other outcome.
func run(_ arguments: [String], parser: ArgumentParser = SampleTree.parser) throws -> ParsedArguments? {
    if case .run(let parsed) = try parser.parse(arguments) { return parsed }
    return nil
}

/// Parses and returns the text of a `.help` result, or nil for any other outcome.
func help(_ arguments: [String], parser: ArgumentParser = SampleTree.parser) throws -> String? {
    if case .help(let text) = try parser.parse(arguments) { return text }
    return nil
}

/// The usage error that parsing throws, or nil if parsing succeeds.
func usageError(_ arguments: [String], parser: ArgumentParser = SampleTree.parser) -> UsageError? {
    do {
        _ = try parser.parse(arguments)
        return nil
    } catch {
        return error
    }
}
