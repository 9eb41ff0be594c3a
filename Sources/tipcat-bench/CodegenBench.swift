import Foundation

/// `make bench` part `codegen`: `tipcat generate swift` and `tipcat generate tipkit` on the synthetic catalog, whole
/// processes (start, load and validate the catalog, generate, write the file), median of N; the output directory
/// is emptied before each run so every run writes its file. `tipcat validate` on the same catalog runs between them
/// as the baseline: a generator reads the catalog as validate does, so the difference is the generating and writing.
func runCodegenBench(catalogDirectory: String, directory: String, binary: String, runs: Int) {
    print("")
    print("tipcat generate swift / tipkit (whole processes, median of \(runs))")
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        print("not measured: \(binary) is not built")
        return
    }
    var baseline: [Double] = []
    for generator in ["swift", "tipkit"] {
        let output = directory + "/" + generator
        var times: [Double] = []
        for _ in 0..<runs {
            try? FileManager.default.removeItem(atPath: output)
            if let time = timedRun(binary, ["validate", "--catalog", catalogDirectory]) { baseline.append(time) }
            guard let time = timedRun(binary, ["generate", generator, "--catalog", catalogDirectory, "-o", output]) else { continue }
            times.append(time)
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        let bytes = files.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: output + "/" + name)[.size] as? Int) ?? 0)
        }
        guard files.count == 1, times.count == runs else {
            print("tipcat generate \(generator): failed (\(files.count) files written, \(times.count) of \(runs) runs finished)")
            continue
        }
        print("tipcat generate \(generator): \(format(median(times) * 1000)) ms median of \(runs) (min \(format((times.min() ?? 0) * 1000)) ms), "
              + "\(files[0]) \(format(Double(bytes) / 1_048_576, 2)) MB")
    }
    print("tipcat validate (baseline, interleaved): \(format(median(baseline) * 1000)) ms median of \(baseline.count)")
}
