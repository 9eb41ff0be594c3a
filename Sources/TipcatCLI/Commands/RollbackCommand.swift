import TipcatArguments
import TipcatStore

/// `tipcat rollback --to N`: a new version with N's content; history never moves backwards.
struct RollbackCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let access = StoreAccess(arguments: arguments, context: context)
        let channel = try access.channel()
        guard let target = try access.number("to"), target >= 1 else {
            throw CommandError.usage("--to takes the number of the version to restore (1, 2…)", command: access.command)
        }
        let request = RollbackRequest(
            channel: channel, target: target, message: arguments.value("message"), author: access.author,
            time: try access.now(), tipcatVersion: tipcatVersion, expectedVersion: try access.number("expect-version"))
        let outcome: PublishOutcome
        outcome = try access.open(.readWrite).rollback(request)
        switch outcome {
        case .unchanged(let head):
            context.stdout.line("Nothing to roll back: \(channel) is at version \(head.number), which already has version \(target)'s content.")
        case .published(let record, let diff):
            context.stdout.line("Rolled back \(channel) to version \(target)'s content as version \(record.number): \(diff.summary)")
            context.stdout.line("  content \(record.contentHash.hex), \(record.tipsChanged) \(plural(record.tipsChanged, "tip")) changed, parent \(record.parent.map(String.init) ?? "none")")
        }
    }
}

/// `tipcat promote FROM TO`: move a channel pointer to another channel's head, compare-and-swap.
struct PromoteCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let access = StoreAccess(arguments: arguments, context: context)
        let source = try access.channel(named: arguments.positional("from") ?? "")
        let target = try access.channel(named: arguments.positional("to") ?? "")
        guard source != target else {
            throw CommandError.usage("promote moves one channel to another's head; '\(source)' was given twice", command: access.command)
        }
        let outcome: PromoteOutcome
        outcome = try access.open(.readWrite).promote(
            from: source, to: target, expectedVersion: try access.number("expect-version"), time: try access.now())
        if outcome.moved {
            context.stdout.line("\(target) now points at version \(outcome.current) (\(source)'s head); it was at \(outcome.previous.map(String.init) ?? "no version").")
        } else {
            context.stdout.line("Nothing to promote: \(target) already points at version \(outcome.current).")
        }
    }
}
