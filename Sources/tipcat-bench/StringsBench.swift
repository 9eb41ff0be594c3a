import Foundation

/// `make bench` part `strings`: a whole `tipcat strings sync --check` process against a whole `tipcat validate`
/// on the generated catalog, interleaved, median of N each (goal: within 2× of validate).
func runStringsBench(catalogDirectory: String, binary: String, runs: Int) {
    print("")
    print("tipcat strings sync --check vs tipcat validate (whole processes, interleaved, median of \(runs))")
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        print("not measured: \(binary) is not built")
        return
    }
    var validate: [Double] = []
    var sync: [Double] = []
    for _ in 0..<runs {
        if let time = timedRun(binary, ["validate", "--catalog", catalogDirectory]) { validate.append(time) }
        if let time = timedRun(binary, ["strings", "sync", "--check", "--catalog", catalogDirectory]) { sync.append(time) }
    }
    guard !validate.isEmpty, !sync.isEmpty else {
        print("not measured: \(binary) did not start")
        return
    }
    let base = median(validate)
    let check = median(sync)
    let ratio = base > 0 ? check / base : 0
    print("tipcat validate: \(format(base * 1000)) ms   tipcat strings sync --check: \(format(check * 1000)) ms   "
          + "ratio \(format(ratio, 2))×  (goal ≤ 2×: \(ratio <= 2 ? "met" : "NOT met"))")
}
