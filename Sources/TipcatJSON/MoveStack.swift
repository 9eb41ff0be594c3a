/// A growable stack that hands out its top elements as an exactly-sized `Array` by moving them.
///
/// The parser pushes the children of every open container here and, when the container closes, moves
/// them into the container's array: one allocation per container, no retain/release per child.
final class MoveStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = Swift.max(1, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    @inline(__always)
    func append(_ element: consuming Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: element)
        count += 1
    }

    private func grow() {
        let newCapacity = capacity * 2
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newStorage.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    /// Moves the elements at `start...` out into a new array, in order, and shrinks the stack to `start`.
    func popArray(from start: Int) -> [Element] {
        let length = count - start
        guard length > 0 else { return [] }
        let source = storage + start
        let result = [Element](unsafeUninitializedCapacity: length) { buffer, initialized in
            guard let target = buffer.baseAddress else { return }
            target.moveInitialize(from: source, count: length)
            initialized = length
        }
        // If the array could not take them (never happens for length > 0), drop them properly.
        if result.count != length { source.deinitialize(count: length) }
        count = start
        return result
    }
}
