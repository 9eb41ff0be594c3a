import Dispatch
import Synchronization

/// Runs `body` over `0..<count` in chunks on every core and returns the chunks' results in order.
///
/// Loading work is embarrassingly parallel (files, tips, String Catalog entries); each chunk builds its own
/// results and findings, so nothing is shared while it runs.
public func concurrentChunks<T: Sendable>(count: Int, chunkSize: Int, _ body: @Sendable (Range<Int>) -> T) -> [T] {
    guard count > 0 else { return [] }
    let size = max(1, chunkSize)
    let chunks = (count + size - 1) / size
    if chunks == 1 { return [body(0..<count)] }
    let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: chunks)
    results.initialize(repeating: nil)
    defer {
        results.deinitialize()
        results.deallocate()
    }
    nonisolated(unsafe) let shared = results
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        shared[chunk] = body((chunk * size)..<min(count, (chunk + 1) * size))
    }
    return results.compactMap { $0 }
}

/// A value computed on another thread while the caller goes on: `value` waits for it (and returns it at once
/// after the first wait).
public final class BackgroundValue<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    public init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async { [self] in
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
    }

    public var value: Value {
        while true {
            if let value = result.withLock({ $0 }) { return value }
            done.wait()
            done.signal()  // for the next wait
        }
    }
}
