import Foundation
import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatRender
import TipcatText

/// `make bench`, rendering in-process (a diagnostic: the whole-process figures are `RenderProcessBench`'s): every
/// tip × every locale of the synthetic catalog in each built-in style, then the same plain output from the same
/// resolved data with Python's Jinja2, and `tipcat render` wall time on the sample catalog.
func renderBenchmark(catalog: Catalog, directory: String, runs: Int, styles: [String]) {
    print("")
    print("tipcat bench — render, in-process (diagnostic: loading excluded on both sides)")
    let resolver = TipResolver(catalog: catalog)
    var resolved: [ResolvedTip] = []
    let resolveTime = seconds {
        for locale in catalog.settings.supportedLocales {
            for tip in catalog.tips {
                if let tip = try? resolver.resolve(tip, locale: locale, parameters: [:], useExample: true) { resolved.append(tip) }
            }
        }
    }
    print("resolved \(resolved.count) tips × locales in \(format(resolveTime * 1000)) ms (\(format(Double(resolved.count) / resolveTime, 0)) resolves/s)")
    let registry = StyleRegistry(directory: nil)
    // Throughput is the best of `rounds` passes on both sides (as Python's timeit advises): the other processes
    // on a small machine can only slow a pass down, never speed it up.
    let rounds = max(3, runs)
    print("renders/s: best of \(rounds) passes over all \(resolved.count) tips, for tipcat and for Jinja2 alike")
    var plainRate = 0.0
    for name in styles {
        guard let style = try? registry.style(named: name) else { continue }
        let renderer = TipRenderer(style: style, settings: RenderSettings(width: 80, colorDepth: name == "ansi" ? .trueColor : .none))
        var bytes = 0
        var times: [Double] = []
        for _ in 0..<rounds {
            bytes = 0
            times.append(seconds {
                for tip in resolved { bytes += (try? renderer.render(tip))?.utf8.count ?? 0 }
            })
        }
        let time = times.min() ?? 0
        let rate = Double(resolved.count) / time
        if name == "plain" { plainRate = rate }
        print("render \(name.padding(toLength: 8, withPad: " ", startingAt: 0)): \(format(rate, 0)) renders/s, \(format(Double(bytes) / 1_048_576 / time)) MB/s (\(resolved.count) renders in \(format(time * 1000)) ms)")
    }

    guard styles.contains("plain") else { return }
    // Jinja2 on the same resolved data, producing the same plain layout (wrapped at 80 columns).
    let data = resolved.map { tip -> [String: Any] in
        ["title": tip.title.text, "message": tip.message?.text ?? "", "image": tip.image ?? "",
         "actions": tip.actions.map(\.title.text)]
    }
    let dataPath = directory + "/../render-data.json"
    guard let json = try? JSONSerialization.data(withJSONObject: data), (try? json.write(to: URL(fileURLWithPath: dataPath))) != nil else {
        print("jinja2: not run (cannot write \(dataPath))")
        return
    }
    let script = """
        import json, sys, time
        try:
            import jinja2
        except ImportError:
            print("missing"); sys.exit(0)
        items = json.load(open(sys.argv[1]))
        env = jinja2.Environment(autoescape=False, keep_trailing_newline=True)
        template = env.from_string(
            "{% filter wordwrap(80) %}{% if image %}({{ image }}) {% endif %}{{ title }}{% endfilter %}\\n"
            "{% if message %}{% filter wordwrap(80) %}{{ message }}{% endfilter %}\\n{% endif %}"
            "{% if actions %}{% filter wordwrap(80) %}{% for a in actions %}[ {{ a }} ]{% if not loop.last %} {% endif %}{% endfor %}{% endfilter %}\\n{% endif %}")
        best = []
        for _ in range(\(rounds)):
            start = time.perf_counter()
            for item in items:
                template.render(**item)
            best.append(time.perf_counter() - start)
        print(len(items) / min(best))
        """
    if let output = runPython(script, dataPath) {
        if let jinja = Double(output) {
            let ratio = plainRate / jinja
            print("jinja2 plain: \(format(jinja, 0)) renders/s; tipcat/jinja2: \(format(ratio, 1))×  (goal ≥ 10×: \(ratio >= 10 ? "met" : "NOT met"))")
        } else {
            print("jinja2: not run (\(output.isEmpty ? "no output" : output); `make bench` installs Jinja2 with pip)")
        }
    }
    try? FileManager.default.removeItem(atPath: dataPath)
}

/// Wall time of `tipcat render ShowLocationTip` on the sample catalog, a whole process each time.
func renderCommandBenchmark(runs: Int) {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tipcat").path
    guard FileManager.default.isExecutableFile(atPath: binary), FileManager.default.fileExists(atPath: "Catalog/catalog.json") else {
        print("tipcat render ShowLocationTip: not measured (needs \(binary) and ./Catalog)")
        return
    }
    var times: [Double] = []
    for _ in 0..<max(5, runs * 2) {
        if let time = timedRun(binary, ["render", "ShowLocationTip", "--style", "ansi"]) { times.append(time) }
    }
    let time = median(times)
    print("tipcat render ShowLocationTip (process, sample catalog): \(format(time * 1000)) ms median of \(times.count)  (goal < 50 ms: \(time < 0.05 ? "met" : "NOT met"))")
}
