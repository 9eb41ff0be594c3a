import TipcatTestSupport

/// Runs `tipcat` in-process at the engine tests' fixed time (`TIPCAT_NOW`), unless `environment` overrides it.
func run(_ arguments: [String], environment: [String: String] = [:]) -> RunResult {
    tipcat(arguments, environment: ["TIPCAT_NOW": "2026-01-05T08:00:00Z"].merging(environment) { _, new in new })
}
