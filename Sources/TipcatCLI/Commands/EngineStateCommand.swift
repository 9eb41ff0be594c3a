import Foundation
import TipcatCatalog
import TipcatCore
import TipcatEngineStore

/// `tipcat engine export-state` and `tipcat engine merge-state`: a device's state as a file, and merging other
/// devices' files into this one's state database.
extension EngineCommand {
    /// `tipcat engine export-state [-o FILE]`: the state database as a state file (standard output by default).
    func exportState() throws {
        let store = try access.stateStore()
        let file: SyncStateFile
        do {
            file = try store.exportState()
        } catch {
            throw CommandError.failure("state database \(error.message)")
        }
        let bytes = file.fileBytes
        let summary = "the state of device \(file.device) (\(Self.summary(file.state)))"
        let output = arguments.value("output") ?? "-"
        if output == "-" {
            (context.stdout.isTerminal ? context.stdout : context.stdout.unfiltered).write(String(decoding: bytes, as: UTF8.self))
            context.stderr.line("Exported \(summary).")
            return
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandError.failure("cannot write '\(output)': \(error.localizedDescription)")
        }
        context.stdout.line("Exported \(summary) to \(output).")
    }

    /// `tipcat engine merge-state FILE…`: every file is read and checked first; any problem is reported with its
    /// location and nothing is merged. Then the files are merged into the state database in one transaction,
    /// donations pruned to the catalog's donation limits.
    func mergeState() throws {
        let paths = arguments.values("files")
        guard !paths.isEmpty else { throw CommandError.usage("name at least one state file", command: arguments.commandPath) }
        // Merging is associative, so the files are folded in one at a time (memory stays at about one file
        // plus the merged state); nothing is written until every file has been read and checked.
        let limits = SyncState.DonationLimits(catalog: try access.source().catalog)
        var merged = SyncState()
        var prunedCount = 0
        var findings: [Diagnostic] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = FileManager.default.contents(atPath: path)
            else {
                findings.append(Diagnostic("cannot read the state file", rule: .stateFile, at: SourceLocation(file: path, line: 1, column: 1)))
                continue
            }
            do {
                let file = try SyncStateFile(bytes: [UInt8](data), path: path)
                guard findings.isEmpty else { continue }
                merged.formUnion(file.state)
                // Pruned now and then, not after every file: the same result, bounded memory.
                if merged.donations.count > 2 * prunedCount + 100_000 {
                    merged.normalize(limits: limits)
                    prunedCount = merged.donations.count
                }
            } catch {
                findings.append(Diagnostic(error.message, rule: .stateFile, at: error.location))
            }
        }
        if !findings.isEmpty {
            context.stderr.write(DiagnosticFormat.text.render(findings))
            throw CommandError.failure(
                "\(findings.count) bad state \(findings.count == 1 ? "file" : "files"); nothing was merged")
        }
        let store = try access.stateStore()
        let result: SyncState
        do {
            result = try store.mergeState([SyncStateFile(device: "merged", state: merged)], limits: limits)
        } catch {
            throw CommandError.failure("state database \(error.message); nothing was merged")
        }
        context.stdout.line(
            "Merged \(paths.count) \(paths.count == 1 ? "state" : "states") into \(access.statePath): \(Self.summary(result)).")
    }

    static func summary(_ state: SyncState) -> String {
        let donations = state.donations.count, tips = state.tips.count, parameters = state.parameters.count
        return "\(donations) \(donations == 1 ? "donation" : "donations"), \(tips) tip \(tips == 1 ? "instance" : "instances"), "
            + "\(parameters) \(parameters == 1 ? "parameter" : "parameters")"
    }
}
