import Foundation

/// Wall-clock marks of a command's phases, printed to standard error when `TIPCAT_TRACE` is set (for finding where
/// a whole process spends its time; `make bench` times the processes themselves). A mark costs one check otherwise.
public enum PhaseTrace {
    /// Whether marks are printed (read once).
    public static let isEnabled: Bool = {
        guard let value = getenv("TIPCAT_TRACE") else { return false }
        return value.pointee != 0
    }()

    private static let start = DispatchTime.now().uptimeNanoseconds

    /// Prints `name` with the milliseconds since the first mark (or since the process's first use of this type).
    public static func mark(_ name: @autoclosure () -> String) {
        guard isEnabled else { return }
        let origin = start
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- origin) / 1_000_000
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let line = "trace: \(String(format: "%8.1f", elapsed)) ms  rss-peak \(usage.ru_maxrss / 1024) MB  \(name())\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
