import Dispatch

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
