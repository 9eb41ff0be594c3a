import TipcatArguments
import TipcatStore

/// `tipcat store migrate --from A --to B`: copies a store's history into another store (`StoreMigration`).
struct StoreMigrateCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let from = try StoreLocation(arguments.value("from") ?? "")
        let to = try StoreLocation(arguments.value("to") ?? "")
        guard from != to else {
            throw CommandError.usage("--from and --to name the same store", command: arguments.commandPath)
        }
        let source = try from.open(.readOnly)
        let target = try to.open(.readWrite)
        let report = try StoreMigration.copy(from: source, to: target)
        let versions = "\(report.totalVersions) \(plural(report.totalVersions, "version"))"
        let channels = "\(report.totalChannels) \(plural(report.totalChannels, "channel"))"
        if report.isNoOp {
            context.stdout.line("Nothing to copy: \(target.location) already has the \(versions) and \(channels) of \(source.location).")
            return
        }
        context.stdout.line(
            "Copied \(report.versions) \(plural(report.versions, "version")), \(report.moves) channel \(plural(report.moves, "move")) and "
                + "\(report.objects) \(plural(report.objects, "object")) from \(source.location) to \(target.location).")
        context.stdout.line("  \(target.location) now has \(versions) and \(channels); every copied version matches its content hash.")
    }
}
