import TipcatArguments
import TipcatJSON
import TipcatStore

/// `tipcat diff A B`: versions, channels or `working`, compared per tip, per field, per locale.
struct DiffCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let access = StoreAccess(arguments: arguments, context: context)
        let fromText = arguments.positional("from") ?? ""
        let toText = arguments.positional("to") ?? ""
        for text in [fromText, toText] {
            if let number = Int(text), number < 1 {
                throw CommandError.usage("versions are numbered from 1; '\(text)' is not one", command: access.command)
            }
        }
        let store = try access.existingStore()
        let from = try access.side(fromText, in: store)
        let to = try access.side(toText, in: store)
        let sources: [any ObjectSource] = [from.tree, to.tree].compactMap { $0 } + (store.map { [$0] } ?? [])
        let diff: CatalogDiff
        diff = try CatalogDiff(from: from.root, to: to.root, reader: TreeReader(LayeredObjectSource(sources)))
        if arguments.flag("json") {
            func side(_ side: StoreAccess.Side, _ text: String) -> JSONValue {
                var pairs: [(String, JSONValue)] = [("ref", .string(text))]
                if let record = side.record { pairs.append(("version", .int(record.number))) }
                if let root = side.root { pairs.append(("contentHash", .string(root.hex))) }
                return .object(pairs)
            }
            let document: JSONValue = .object([("from", side(from, fromText)), ("to", side(to, toText))] + DiffPrinter.json(diff))
            context.stdout.json(document)
            return
        }
        if diff.isEmpty {
            context.stdout.line("No changes between \(from.label) and \(to.label).")
            return
        }
        context.stdout.line("diff \(from.label) → \(to.label)")
        context.stdout.write(DiffPrinter.text(diff))
        context.stdout.line("\(diff.changes.count) \(plural(diff.changes.count, "change")): \(diff.summary)")
    }
}
