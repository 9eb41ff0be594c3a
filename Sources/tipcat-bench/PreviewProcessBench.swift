import Foundation

/// `make bench`, preview part, whole processes: `tipcat preview` writing the whole site (every tip × every
/// supported locale and both pseudo-locales) against `tipcat render --all --style html` once per locale, the
/// same tips and locales; the runs of a round are interleaved.
struct PreviewProcessBench {
    var catalogDirectory: String
    /// Where the site goes.
    var directory: String
    var binary: String
    var tips: Int
    var locales: [String]
    var runs: Int

    func run() {
        print("")
        let all = locales + ["en-XA", "ar-XB"]
        print("tipcat bench — preview, whole processes (\(tips) tips × \(all.count) locales; median of \(runs), min and max; runs interleaved; 1-minute load average \(loadAverage()))")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("preview (process): not measured (\(binary) not built)")
            return
        }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let site = directory + "/site"
        let preview = ["preview", "--catalog", catalogDirectory, "-o", site, "--no-plugins"]
        guard exitStatus(binary, preview) == 0 else {
            print("preview (process): tipcat preview failed on \(catalogDirectory)")
            return
        }
        let pages = (try? FileManager.default.contentsOfDirectory(atPath: site + "/tips").count) ?? 0
        let bytes = Self.size(of: site)
        print("preview: \(pages) tip pages, \(format(Double(bytes) / 1_048_576)) MB in \(site)")
        var previewFigure = RenderProcessBench.Figure()
        var renderFigure = RenderProcessBench.Figure()
        for _ in 0..<runs {
            if let time = timedRun(binary, preview) { previewFigure.times.append(time) }
            var total = 0.0
            var complete = true
            for locale in all {
                if let time = timedRun(binary, ["render", "--all", "--style", "html", "--locale", locale, "--catalog", catalogDirectory]) {
                    total += time
                } else {
                    complete = false
                }
            }
            if complete { renderFigure.times.append(total) }
        }
        let ratio = previewFigure.median / max(renderFigure.median, 1e-9)
        print("preview (whole site) \(previewFigure.text); render --all --style html, \(all.count) locales in sequence \(renderFigure.text): "
              + "preview/render \(format(ratio, 2))×  (goal ≤ 2× render --all: \(RenderProcessBench.verdict(ratio <= 2)))")
    }

    /// The bytes of every file under `path`.
    static func size(of path: String) -> Int {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return 0 }
        var total = 0
        while let relative = enumerator.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + relative)
            if attributes?[.type] as? FileAttributeType == .typeRegular { total += (attributes?[.size] as? NSNumber)?.intValue ?? 0 }
        }
        return total
    }
}
