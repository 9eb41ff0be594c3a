#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Immutable bytes kept alive as long as this object: a file mapped read-only, or a copy of an array.
///
/// Mapping a large file that is already in the page cache costs a few page-table entries, where reading it
/// costs a fresh buffer that every page of must be faulted in and zeroed before the copy: 190 MB take 2.5 ms
/// mapped and 150 ms read. A mapped file that another program truncates while it is read raises SIGBUS; see
/// `FileBytes.guardMappedReads()`.
package final class FileBytes: @unchecked Sendable {
    /// Valid while this object lives; never written.
    package let buffer: UnsafeRawBufferPointer
    /// The mapping `buffer` is part of, unmapped at the end; nil for memory of its own.
    private let mapping: UnsafeRawBufferPointer?

    /// A copy of `bytes`.
    package init(copying bytes: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress, let target = storage.baseAddress { target.copyMemory(from: base, byteCount: source.count) }
        }
        buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<bytes.count])
        mapping = nil
    }

    /// `count` bytes of the open file `descriptor` from `offset`, read into memory of their own; nil when the
    /// file is shorter or cannot be read.
    package init?(reading descriptor: Int32, offset: Int, count: Int) {
        guard count >= 0, offset >= 0 else { return nil }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, count), alignment: 16)
        var done = 0
        while done < count, let base = storage.baseAddress {
            let result = pread(descriptor, base + done, count - done, off_t(offset + done))
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { break }
            done += result
        }
        guard done == count else {
            storage.deallocate()
            return nil
        }
        buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<count])
        mapping = nil
    }

    /// `count` bytes of the open file `descriptor` from `offset`, mapped read-only (the file's first
    /// `offset + count` bytes are mapped); nil when they cannot be mapped. No bytes map to an empty buffer.
    package init?(mapping descriptor: Int32, offset: Int = 0, count: Int) {
        guard offset >= 0, count >= 0 else { return nil }
        guard count > 0 else {
            buffer = UnsafeRawBufferPointer(start: nil, count: 0)
            mapping = nil
            return
        }
        FileBytes.guardMappedReads()
        let length = offset + count
        guard let base = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else { return nil }
        mapping = UnsafeRawBufferPointer(start: base, count: length)
        buffer = UnsafeRawBufferPointer(start: base + offset, count: count)
    }

    deinit {
        if let mapping, let base = mapping.baseAddress {
            munmap(UnsafeMutableRawPointer(mutating: base), mapping.count)
        } else if let base = buffer.baseAddress {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    package var count: Int { buffer.count }

    /// The bytes in `range` as an array (the caller has checked that they are inside).
    package subscript(range: Range<Int>) -> [UInt8] { Array(buffer[range]) }

    /// Gives back the memory of the whole pages of a mapping inside `range` (of `buffer`): read again from the
    /// file if asked for later, so no byte changes. Nothing for memory of its own.
    package func releasePages(in range: Range<Int>) {
        guard mapping != nil, let base = buffer.baseAddress, range.lowerBound >= 0, range.upperBound <= buffer.count else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + range.lowerBound + page - 1) / page * page
        let end = (Int(bitPattern: base) + range.upperBound) / page * page
        guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return }
        madvise(first, end - start, MADV_DONTNEED)
    }

    /// A mapped file that shrinks while it is read makes the next access beyond its new end raise SIGBUS, which
    /// would end the process without a word. Installed once before the first mapping: the handler says what
    /// happened and exits with status 74 (EX_IOERR). Nothing half-written is kept: stores commit in
    /// transactions, and caches are renamed into place only once a command succeeds. (tipcat itself replaces
    /// the files it maps only by renaming new ones over them, which leaves a mapping as it was.)
    package static func guardMappedReads() {
        _ = installGuard
    }

    private static let installGuard: Void = {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = reportTruncatedMapping
        #else
        action.__sigaction_u.__sa_handler = reportTruncatedMapping
        #endif
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, nil)
    }()
}

/// The SIGBUS handler (`FileBytes.guardMappedReads`): only async-signal-safe calls, a message from the binary's
/// constants.
private func reportTruncatedMapping(_ signal: Int32) {
    let message: StaticString = "tipcat: error: a file was truncated by another program while tipcat read it; stopped\n"
    _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
    _exit(74)
}
