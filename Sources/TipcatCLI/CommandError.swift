/// Exit statuses, as sysexits(3) and swift-argument-parser use them.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// The command ran and found problems (validation findings, a failed check).
    case failure = 1
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// Input data was wrong in a way the command cannot report as findings (EX_DATAERR) — unused so far.
    case internalError = 70
}

/// Errors commands throw; `TipcatCommand.run` turns each into text on stderr and an exit status.
enum CommandError: Error {
    /// Bad command-line usage; printed with `Error:` and a help hint, exit 64.
    case usage(String, command: [String])
    /// The command could not do its job; printed as `error: …`, exit 1.
    case failure(String)
    /// Findings were already printed; just exit with this status.
    case exit(ExitCode)
}
