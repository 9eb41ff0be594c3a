/// A process exit status, with the values sysexits(3) and swift-argument-parser use named.
///
/// A struct rather than an enum so that a child's status (an external `tipcat-foo` exiting 3) passes through.
public struct ExitStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The numeric status handed to `exit`.
    public var rawValue: Int32

    /// Creates a status from its number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Creates a status from its number.
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// 0: the command did its job.
    public static let success = ExitStatus(0)
    /// 1: the command ran and found problems (validation findings, a failed check, a refused operation).
    public static let failure = ExitStatus(1)
    /// 64 (EX_USAGE): the command line was wrong.
    public static let usage = ExitStatus(64)
    /// 69 (EX_UNAVAILABLE): a service the command needs cannot be reached (a store's server refused the
    /// connection or went away); trying again later may work.
    public static let unavailable = ExitStatus(69)
    /// 77 (EX_NOPERM): a service refused the command's credentials (a store's server rejected the password).
    public static let noPermission = ExitStatus(77)
    /// 70 (EX_SOFTWARE): an internal error — a bug, or an error nobody turned into a message.
    public static let internalError = ExitStatus(70)

    /// The number, as a shell prints `$?`.
    public var description: String { String(rawValue) }
}
