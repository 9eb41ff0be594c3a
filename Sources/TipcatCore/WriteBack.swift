import CByteScan
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Starts the kernel writing files' dirty pages to their device while the program goes on.
///
/// A machine with gigabytes of memory keeps what a process writes in the page cache until something forces it out:
/// a publish that writes a store of 165 MB in one transaction then waits 90 ms in the commit's fsync for all of it.
/// Started as the transaction goes, the writing overlaps the work that remains, and the commit's fsync waits only
/// for the last pages. Durability is unchanged: the fsync still decides when the data is safe.
public enum WriteBack {
    /// Starts writing back each of `paths` that exists, on a background thread.
    public static func start(_ paths: [String]) {
        DispatchQueue.global(qos: .utility).async {
            for path in paths { _ = startNow(path) }
        }
    }

    /// Starts writing back `path`'s dirty pages and returns without waiting for them: whether it could (false for a
    /// file that cannot be opened, or where the system has no such call).
    @discardableResult
    public static func startNow(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return tipcat_start_writeback(descriptor) == 0
    }
}
