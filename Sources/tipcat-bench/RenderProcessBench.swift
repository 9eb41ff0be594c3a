import Foundation

/// `make bench`, render part, whole processes: `tipcat render --all` for each built-in style against `tipcat
/// validate` on the same catalog, and against a Python + Jinja2 script that does the identical work (its output
/// compared with tipcat's byte for byte before it is timed). The three runs of a round are interleaved.
struct RenderProcessBench {
    var catalogDirectory: String
    /// Where the Jinja2 script and the captured outputs go.
    var directory: String
    var binary: String
    var tips: Int
    var runs: Int
    var styles: [String]
    /// The source language and one translated locale with wide text.
    var locales = ["en", "ja"]
    var width = 80

    struct Figure {
        var times: [Double] = []
        var median: Double { tipcat_bench.median(times) }
        var text: String {
            "\(format(median * 1000)) ms (min \(format((times.min() ?? 0) * 1000)), max \(format((times.max() ?? 0) * 1000)))"
        }
    }

    static func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }

    func renderArguments(style: String, locale: String) -> [String] {
        ["render", "--all", "--style", style, "--locale", locale, "--width", String(width), "--catalog", catalogDirectory]
            + (style == "ansi" ? ["--color", "always"] : [])
    }

    func run() {
        print("")
        print("tipcat bench — render, whole processes (\(tips) tips; median of \(runs), min and max; runs interleaved; 1-minute load average \(loadAverage()))")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("render (process): not measured (\(binary) not built)")
            return
        }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = directory + "/render_jinja.py"
        let python = pythonInterpreter
        let jinja = python.map { exitStatus($0, ["-c", "import jinja2"]) == 0 } ?? false
            && (try? renderJinjaScript.write(toFile: script, atomically: true, encoding: .utf8)) != nil
        if !jinja { print("jinja2: not run (needs python3 with Jinja2; `make bench` installs it with pip)") }

        for style in styles {
            for locale in locales {
                let label = "\(style) --locale \(locale)"
                print("\(label): 1-minute load average \(loadAverage())")
                let arguments = renderArguments(style: style, locale: locale)
                // Byte equality first: the Jinja2 figure counts only when both sides print the same bytes.
                var identical = false
                var pythonArguments: [String] = []
                if let python, jinja {
                    let ours = directory + "/tipcat-\(style)-\(locale).out"
                    let theirs = directory + "/jinja2-\(style)-\(locale).out"
                    pythonArguments = [script, catalogDirectory, style, locale, String(width)]
                    _ = timedRun(binary, arguments, stdout: ours)
                    _ = timedRun(python, pythonArguments, stdout: theirs)
                    let a = FileManager.default.contents(atPath: ours) ?? Data()
                    let b = FileManager.default.contents(atPath: theirs) ?? Data()
                    if a.isEmpty {
                        print("\(label): tipcat printed nothing")
                    } else if a == b {
                        identical = true
                        print("\(label): output identical: yes (\(a.count) bytes)")
                    } else {
                        let difference = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
                        print("\(label): output identical: NO (first difference at byte \(difference); tipcat \(a.count) bytes, jinja2 \(b.count) bytes)")
                    }
                }
                var validate = Figure()
                var render = Figure()
                var python3 = Figure()
                for _ in 0..<runs {
                    if let time = timedRun(binary, ["validate", "--catalog", catalogDirectory]) { validate.times.append(time) }
                    if let time = timedRun(binary, arguments) { render.times.append(time) }
                    if identical, let python, let time = timedRun(python, pythonArguments) { python3.times.append(time) }
                }
                let ratio = render.median / max(validate.median, 1e-9)
                print("\(label): tipcat render --all \(render.text), tipcat validate \(validate.text): render/validate \(format(ratio, 2))×  "
                      + "(goal ≤ 1.15× validate: \(Self.verdict(ratio <= 1.15)))")
                if identical {
                    let speedup = python3.median / max(render.median, 1e-9)
                    print("\(label): jinja2 whole process \(python3.text): jinja2/tipcat \(format(speedup, 2))×  "
                          + "(goal tipcat ≥ 2× faster than Jinja2 whole process: \(Self.verdict(speedup >= 2)))")
                } else if jinja {
                    print("\(label): jinja2 ratio not printed (outputs differ)")
                }
            }
        }
    }

    /// The first executable `name` on PATH.
    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
