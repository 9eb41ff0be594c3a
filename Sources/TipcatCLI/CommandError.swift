public import TipcatCore

/// The CLI's name for `ExitStatus` (kept so commands and tests read as before).
public typealias ExitCode = ExitStatus

/// Errors commands throw; `TipcatCommand.run` turns each into text on stderr and an exit status.
enum CommandError: Error {
    /// Bad command-line usage; printed with `Error:` and a help hint, exit 64.
    case usage(String, command: [String])
    /// The command could not do its job; printed as `error: …`, exit 1.
    case failure(String)
    /// Findings were already printed; just exit with this status.
    case exit(ExitCode)
}
