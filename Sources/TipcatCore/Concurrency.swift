import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The number of processor cores online (at least 1): how many pieces of parallel work run at once.
public var onlineCores: Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

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
        FreeMemory.primeThisThread()
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
            FreeMemory.primeThisThread()
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

/// An array of `count` elements made on every core, `chunkSize` at a time, each written once into its place (no
/// chunk arrays copied into the result afterwards: tens of thousands of large elements would each be retained and
/// released again). `body` gets a chunk's range and must `emit` exactly that many elements, in order, and return
/// true; nil when any chunk returns false or emits another number (what was emitted is released, nothing leaks).
/// No chunk runs for a count of 0.
public func concurrentArray<T: Sendable>(
    count: Int, chunkSize: Int, _ body: @Sendable (Range<Int>, _ emit: (T) -> Void) -> Bool
) -> [T]? {
    guard count > 0 else { return [] }
    let size = max(1, chunkSize)
    let chunks = (count + size - 1) / size
    // How many elements each chunk initialized, and whether it completed.
    let made = UnsafeMutableBufferPointer<(count: Int, complete: Bool)>.allocate(capacity: chunks)
    made.initialize(repeating: (0, false))
    defer { made.deallocate() }
    var complete = false
    let array = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
        guard let base = buffer.baseAddress else { return }
        nonisolated(unsafe) let elements = base
        nonisolated(unsafe) let results = made
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            FreeMemory.primeThisThread()
            let range = (chunk * size)..<min(count, (chunk + 1) * size)
            var next = range.lowerBound
            var overflowed = false
            let returned = body(range) { element in
                guard next < range.upperBound else {
                    overflowed = true
                    return
                }
                (elements + next).initialize(to: element)
                next += 1
            }
            results[chunk] = (next - range.lowerBound, returned && !overflowed && next == range.upperBound)
        }
        if made.allSatisfy(\.complete) {
            initialized = count
            complete = true
        } else {
            for chunk in 0..<chunks { (base + chunk * size).deinitialize(count: made[chunk].count) }
            initialized = 0
        }
    }
    return complete ? array : nil
}

/// A value made the first time it is read, once whatever the threads reading it (the time zone, the index of
/// tips by id: work most calls never need).
package final class FirstUse<Value: Sendable>: Sendable {
    private let make: @Sendable () -> Value
    private let made = Mutex<Value?>(nil)

    package init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    package var value: Value {
        made.withLock { made in
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}

extension Array {
    /// The arrays one after another, in one array allocated at its final size: `flatMap { $0 }` grows its result
    /// by doubling, copying what it holds each time (for the chunks of a large catalog's tips or files, megabytes
    /// written twice and pages touched for nothing).
    ///
    /// The parts' elements are moved, not copied, when the parts are this array's alone (the chunks a
    /// `concurrentChunks` returns): copying a struct of strings retains each, and dropping the parts releases them
    /// again, a share of the time for a hundred thousand of them.
    @inlinable
    public consuming func joinedArrays<Item>() -> [Item] where Element == [Item] {
        var parts = self
        var joined: [Item] = []
        joined.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for index in parts.indices { joined.appendMoving(&parts[index]) }
        return joined
    }

    /// Moves `other`'s elements to the end of this array, in their order, and leaves `other` empty. Unlike
    /// `append(contentsOf:)` followed by dropping `other`, no element is copied: the references an element holds
    /// are neither retained nor released. (When `other` shares its storage, its elements are copied once first.)
    @inlinable
    public mutating func appendMoving(_ other: inout [Element]) {
        guard !other.isEmpty else { return }
        if _isPOD(Element.self) {
            append(contentsOf: other)
            other = []
            return
        }
        if capacity < count + other.count { reserveCapacity(Swift.max(count + other.count, 2 * capacity)) }
        // Reversed, then taken from the end: each pop and append moves an element.
        other.reverseMoving()
        while let element = other.popLast() { append(element) }
        other = []
    }

    /// `reverse()` by moving the elements: an array's own `reverse()` swaps by copying, retaining and releasing the
    /// references each element holds; its buffer's swaps move. For taking elements from the end in their order.
    @inlinable
    public mutating func reverseMoving() {
        withUnsafeMutableBufferPointer { $0.reverse() }
    }
}

extension Array where Element: Sendable {
    /// Empties the array, its elements released on every core. Dropping tens of thousands of parsed documents (each
    /// a tree of nodes to free) otherwise takes one core while the others wait: 80 ms at 20,000 tip files.
    public mutating func removeAllConcurrently(chunkSize: Int = 1024) {
        let size = Swift.max(1, chunkSize)
        guard count > size, !_isPOD(Element.self) else {
            removeAll()
            return
        }
        // The elements are moved into parts (no reference retained or released), each part then emptied by a core.
        var parts: [ReleasedPart<Element>] = []
        parts.reserveCapacity((count + size - 1) / size)
        while !isEmpty {
            var elements: [Element] = []
            elements.reserveCapacity(Swift.min(size, count))
            while elements.count < size, let element = popLast() { elements.append(element) }
            parts.append(ReleasedPart(elements))
        }
        let released = parts
        parts = []
        _ = concurrentChunks(count: released.count, chunkSize: 1) { range in
            for index in range { released[index].elements = [] }
            return 0
        }
    }
}

/// Some elements `removeAllConcurrently` moved out of an array, released by the core that empties the part.
private final class ReleasedPart<Element: Sendable>: @unchecked Sendable {
    var elements: [Element]

    init(_ elements: [Element]) { self.elements = elements }
}
