public import TipcatCore

/// The CLI's name for `ExitStatus` (kept so commands and tests read as before).
public typealias ExitCode = ExitStatus

/// Errors commands throw; `TipcatCommand.run` turns each into text on stderr and an exit status.
enum CommandError: TipcatError {
    /// Bad command-line usage; printed with `Error:` and a help hint, exit 64.
    case usage(String, command: [String])
    /// The command could not do its job; printed as `error: …`, exit 1.
    case failure(String)
    /// Findings were already printed; just exit with this status.
    case exit(ExitCode)
}

extension CommandError {
    var message: String {
        switch self {
        case .usage(let message, _), .failure(let message): message
        case .exit: ""
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .usage: .usage
        case .failure: .failure
        case .exit(let status): status
        }
    }
}

/// A failure in an input file the command read itself (a params file…), printed with its location and rule.
struct InputError: TipcatError {
    var message: String
    var location: SourceLocation?
    var ruleID: String?
}
