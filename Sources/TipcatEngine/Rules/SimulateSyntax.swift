public import TipcatCore

extension DiagnosticRule {
    /// A line of a simulation script that does not parse.
    public static let simulateSyntax = DiagnosticRule(
        "simulate-syntax", .error, stage: .simulation,
        summary: "a simulation script line that does not parse",
        snippets: [.simulation("repeat 3")])
}
