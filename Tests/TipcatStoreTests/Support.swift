import Testing
import TipcatCatalog
import TipcatCore
import TipcatCodec
import TipcatStore
import TipcatTestSupport

let fixedTime = Timestamp(iso8601: "2026-03-01T09:30:00Z") ?? Timestamp(secondsSince1970: 0)

func publishRequest(
    _ catalog: Catalog, channel: String = "production", message: String? = nil, expect: Int? = nil, force: Bool = false
) throws -> PublishRequest {
    PublishRequest(
        channel: try ChannelName(channel), tree: ContentTree(catalog: catalog), message: message, author: "tester",
        time: fixedTime, tipcatVersion: "test", expectedVersion: expect, force: force)
}

extension PublishOutcome {
    var record: VersionRecord {
        switch self {
        case .published(let record, _), .unchanged(let record): record
        }
    }

    var diff: CatalogDiff? {
        if case .published(_, let diff) = self { return diff }
        return nil
    }

    var isUnchanged: Bool {
        if case .unchanged = self { return true }
        return false
    }
}

/// Runs `tipcat` in-process at the store tests' fixed time (`TIPCAT_NOW`), unless `environment` overrides it.
func storeCLI(_ arguments: [String], environment: [String: String] = [:], terminal: Bool = false) -> RunResult {
    tipcat(arguments, environment: ["TIPCAT_NOW": "2026-03-01T09:30:00Z"].merging(environment) { _, new in new }, terminal: terminal)
}
