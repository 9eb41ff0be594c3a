#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock marks of a command's phases, printed to standard error when `TIPCAT_TRACE` is set (for finding where
/// a whole process spends its time; `make bench` times the processes themselves). A mark costs one check otherwise.
public enum PhaseTrace {
    /// Whether marks are printed (read once).
    public static let isEnabled: Bool = {
        guard let value = getenv("TIPCAT_TRACE") else { return false }
        return value.pointee != 0
    }()

    private static let start = now()

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }

    /// Prints `name` with the milliseconds since the first mark, and the process's peak memory so far.
    public static func mark(_ name: @autoclosure () -> String) {
        guard isEnabled else { return }
        let origin = start
        let elapsed = now() - origin
        var usage = rusage()
        getrusage(RUSAGE_SELF_WHO, &usage)
        let tenths = Int((elapsed * 10).rounded())
        // CPU time on every thread so far: what a phase took beside its wall time tells how busy the cores were.
        let cpu = Int(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000 + Int(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
        // The page faults so far: each page the process touches for the first time is one (or a few pages of a
        // mapped file at once), and on a virtual machine they cost microseconds each.
        let resident = residentMegabytes()
        let line = "trace: \(tenths / 10).\(tenths % 10) ms  cpu \(cpu) ms  rss \(resident.total) MB (anonymous \(resident.anonymous)), "
            + "peak \(usage.ru_maxrss / 1024) MB, faults \(usage.ru_minflt + usage.ru_majflt)  \(name())\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}

extension PhaseTrace {
    /// The process's resident memory now, from `/proc/self/statm` (0 where there is none).
    /// The resident memory in all, and the part no file backs (`/proc/self/statm`: resident and shared pages).
    static func residentMegabytes() -> (total: Int, anonymous: Int) {
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return (0, 0) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return (0, 0) }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 2, let pages = Int(String(decoding: fields[1], as: UTF8.self)),
              let shared = Int(String(decoding: fields[2], as: UTF8.self)) else { return (0, 0) }
        let megabytes = { (pages: Int) in pages * Int(sysconf(Int32(_SC_PAGESIZE))) / (1 << 20) }
        return (megabytes(pages), megabytes(max(0, pages - shared)))
    }
}

#if canImport(Glibc)
private let RUSAGE_SELF_WHO = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
private let RUSAGE_SELF_WHO = RUSAGE_SELF
#endif
