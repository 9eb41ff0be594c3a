/// An error a library throws for the command line to report: a message, optionally a rule id and a source
/// location, and the exit status it means.
///
/// Libraries throw these and never print; `TipcatCommand.run` prints each one once, swiftc style —
/// `file:line:col: error: message [rule]`, or `error: message` without a location — after passing every
/// piece through the terminal sanitizer, and exits with `exitStatus`. An error with status `.usage` is
/// printed as a command-line mistake instead (`Error: message`, the command's usage and a help hint).
public protocol TipcatError: Error {
    /// What went wrong, in words a user can act on; without the location and the rule id.
    /// An empty message prints nothing (the command already reported what happened).
    var message: String { get }
    /// A stable kebab-case identifier of the kind of problem (`template-unclosed-tag`), if any.
    var ruleID: String? { get }
    /// Where in an input file the problem is, if it is in one.
    var location: SourceLocation? { get }
    /// The process exit status the error means; `.failure` (1) unless the type says otherwise.
    var exitStatus: ExitStatus { get }
}

extension TipcatError {
    /// No rule id.
    public var ruleID: String? { nil }
    /// No location.
    public var location: SourceLocation? { nil }
    /// `.failure` (1).
    public var exitStatus: ExitStatus { .failure }
}

extension TipcatError where Self: CustomStringConvertible {
    /// The error's description.
    public var message: String { description }
}
