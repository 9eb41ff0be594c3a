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
        var files: [SyncStateFile] = []
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
                files.append(try SyncStateFile(bytes: [UInt8](data), path: path))
            } catch {
                findings.append(Diagnostic(error.message, rule: .stateFile, at: error.location))
            }
        }
        if !findings.isEmpty {
            context.stderr.write(DiagnosticFormat.text.render(findings))
            throw CommandError.failure(
                "\(findings.count) bad state \(findings.count == 1 ? "file" : "files"); nothing was merged")
        }
        let source = try access.source()
        let store = try access.stateStore()
        let merged: SyncState
        do {
            merged = try store.mergeState(files, limits: SyncState.DonationLimits(catalog: source.catalog))
        } catch {
            throw CommandError.failure("state database \(error.message); nothing was merged")
        }
        context.stdout.line(
            "Merged \(files.count) \(files.count == 1 ? "state" : "states") into \(access.statePath): \(Self.summary(merged)).")
    }

    static func summary(_ state: SyncState) -> String {
        let donations = state.donations.count, tips = state.tips.count, parameters = state.parameters.count
        return "\(donations) \(donations == 1 ? "donation" : "donations"), \(tips) tip \(tips == 1 ? "instance" : "instances"), "
            + "\(parameters) \(parameters == 1 ? "parameter" : "parameters")"
    }
}
