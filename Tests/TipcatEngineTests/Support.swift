import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatRules

/// The repository root, found from this file's path.
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    parts.removeLast(3)  // Tests/TipcatEngineTests/Support.swift
    return parts.joined(separator: "/")
}()

/// The scenario scripts' directory.
let scenarioDirectory = repositoryRoot + "/Tests/TipcatEngineTests/Scenarios"

/// The sample catalog, loaded once.
let sampleCatalog: Catalog = {
    let result = CatalogLoader().load(directory: repositoryRoot + "/Catalog")
    return result.catalog
}()

/// `2026-01-01T09:00` as a timestamp (0 when malformed, which the tests would notice).
func time(_ text: String) -> Timestamp {
    Timestamp(iso8601: text) ?? Timestamp(secondsSince1970: 0)
}

func days(_ count: Double) -> TimeSpan { TimeSpan(seconds: count * 86_400) }
func hours(_ count: Double) -> TimeSpan { TimeSpan(seconds: count * 3600) }

/// Declarations shaped like the sample catalog's, for evaluator tests.
let ruleEnvironment = RuleEnvironment(
    appParameters: [
        "isLoggedIn": .bool, "launchCount": .int, "favoritePlants": .set(.string), "firstLaunch": .date,
        "mapMode": .string, "ratio": .double, "scores": .list(.int),
    ],
    events: [
        "entered-backyard-detail-view": ["backyardID": .int],
        "viewed-food-detail": ["name": .string, "isFavorite": .bool],
        "visited-region": ["region": .string],
        "opened-map": [:],
    ],
    tipParameters: ["trail": .record([.init("id", .string), .init("name", .string), .init("region", .string)])],
    tipIDs: ["ShowLocationTip"]
)

/// Checks `text` (which must be error-free).
func checkedRule(_ text: String, in environment: RuleEnvironment = ruleEnvironment) throws -> CheckedRule {
    let (rule, diagnostics) = RuleChecker.check(text, in: environment)
    return try #require(rule, "\(diagnostics.map(\.message))")
}

/// A log with one field, donated at the given times with the given values.
func log(_ fields: [String], _ donations: [(String, [Value])], maxCount: Int = DonationLog.defaultMaxCount,
         maxAge: TimeSpan? = nil) -> DonationLog {
    var log = DonationLog(fields: fields, maxCount: maxCount, maxAge: maxAge)
    for (when, values) in donations { log.append(at: time(when), values: values) }
    return log
}
