public import TipcatCatalog
import Synchronization

/// Each tip's content hash in one catalog version, read only when first asked for.
///
/// The engine compares hashes only when the version it runs differs from the one its state was last used
/// with, so a call on the same version (almost every call) never reads them; a store or a snapshot that keeps
/// thousands of hashes gives them as a closure, run at most once.
public final class TipContentHashes: Sendable {
    private let load: @Sendable () -> [TipID: String]
    private let loaded = Mutex<[TipID: String]?>(nil)

    /// Hashes already at hand.
    public init(_ hashes: [TipID: String]) {
        load = { hashes }
        loaded.withLock { $0 = hashes }
    }

    /// Hashes `load` returns when first asked for.
    public init(deferred load: @escaping @Sendable () -> [TipID: String]) {
        self.load = load
    }

    /// The hashes (running the loader on the first call).
    public var hashes: [TipID: String] {
        loaded.withLock { loaded in
            if let loaded { return loaded }
            let hashes = load()
            loaded = hashes
            return hashes
        }
    }
}
