import Foundation
import Testing
import TipcatCore
import TipcatTestSupport
@testable import TipcatCatalog

/// `DiskFileSystem.map` gives what `read` gives, and refuses what `read` refuses, with the same reasons.
@Suite struct MappedFileTests {
    @Test func mapsWhatReadReads() throws {
        let directory = try TemporaryDirectory()
        // Empty, one byte, a page and a byte, and several megabytes (more than one huge page).
        for size in [0, 1, 4097, 9 << 20] {
            let path = directory.file("file-\(size)")
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let disk = DiskFileSystem()
            let mapped = try disk.map(path)
            #expect(mapped.count == size)
            #expect(Array(mapped.buffer) == bytes, "size \(size)")
            #expect(try disk.read(path) == bytes, "size \(size)")
            if size > 10 { #expect(mapped[3..<9] == Array(bytes[3..<9])) }
        }
    }

    /// A part of a file mapped from an offset (not page-aligned) is that part, as read.
    @Test func mapsAPartFromAnyOffset() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("snapshot")
        let bytes = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        for (offset, count) in [(0, 20_000), (120, 5000), (4096, 1), (4097, 15_903), (19_999, 1), (300, 0)] {
            let mapped = try #require(FileBytes(mapping: descriptor, offset: offset, count: count))
            let read = try #require(FileBytes(reading: descriptor, offset: offset, count: count))
            #expect(Array(mapped.buffer) == Array(bytes[offset..<(offset + count)]), "\(offset)+\(count)")
            #expect(Array(read.buffer) == Array(mapped.buffer))
        }
        #expect(FileBytes(reading: descriptor, offset: 19_000, count: 2000) == nil, "beyond the end")
    }

    /// Giving a mapping's pages back changes none of its bytes, whatever the range (on or off page boundaries,
    /// empty, outside the file), and takes them out of the process's memory; memory of its own is left alone.
    @Test func releasedPagesReadTheSameAndLeaveMemory() throws {
        let directory = try TemporaryDirectory()
        let (bytes, mapped, resident) = try mappedPatternFile(at: directory.file("strings"), count: 9 << 20 + 123, shift: 11)
        #expect(Array(mapped.buffer) == bytes)
        let before = try #require(resident())
        #expect(before >= 9 << 10, "every page was read")
        mapped.releasePages(in: 0..<mapped.count)
        let after = try #require(resident())
        #expect(after < before / 8, "\(after) KB still resident")
        #expect(Array(mapped.buffer) == bytes, "read again after its pages were given back")
        for range in [100..<200, 4095..<8193, 4096..<4096, 7_000_000..<(9 << 20 + 123), -5..<10, 0..<(10 << 20)] {
            mapped.releasePages(in: range)
            #expect(Array(mapped.buffer) == bytes, "\(range)")
        }
        let own = FileBytes(copying: bytes)
        own.releasePages(in: 0..<own.count)
        #expect(Array(own.buffer) == bytes)
        // The same bytes mapped or in an array are the same source bytes.
        let (inPlace, inArray) = (SourceBytes(mapped: mapped), SourceBytes(bytes))
        #expect(inPlace == inArray && inPlace.hashValue == inArray.hashValue && inPlace.array == bytes)
        #expect(inPlace[12_345] == bytes[12_345] && Array(inPlace[100..<140]) == Array(bytes[100..<140]))
        #expect(inPlace.withUnsafeBufferPointer { Array($0) } == bytes)
    }

    @Test func refusesWhatReadRefuses() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.file("pipe.json")
        #expect(mkfifo(fifo, 0o644) == 0)
        try FileManager.default.createDirectory(atPath: directory.file("folder"), withIntermediateDirectories: true)
        let big = directory.file("big")
        try Data(count: 2048).write(to: URL(fileURLWithPath: big))
        let disk = DiskFileSystem(maxFileSize: 1024)
        for path in [fifo, directory.file("folder"), directory.file("missing"), big] {
            let readError = #expect(throws: FileReadError.self) { _ = try disk.read(path) }
            let mapError = #expect(throws: FileReadError.self) { _ = try disk.map(path) }
            #expect(readError != nil && readError == mapError, "\(path)")
        }
    }

    /// A listing tells regular files from links, folders and FIFOs; a path listed as a regular file but replaced
    /// by something else since is refused all the same once open (a FIFO without a writer does not block), with
    /// the error `read` gives.
    @Test func aFileListedAsRegularIsStillRefusedWhenItIsNot() throws {
        let directory = try TemporaryDirectory()
        try Data("{}".utf8).write(to: URL(fileURLWithPath: directory.file("tip.json")))
        #expect(symlink(directory.file("tip.json"), directory.file("link.json")) == 0)
        #expect(mkfifo(directory.file("pipe.json"), 0o644) == 0)
        try FileManager.default.createDirectory(atPath: directory.file("folder"), withIntermediateDirectories: true)
        let disk = DiskFileSystem(maxFileSize: 1024)
        let listed = try #require(disk.listFiles(directory.path))
        #expect(Set(listed) == [
            ListedFile(name: "tip.json", isRegular: true), ListedFile(name: "link.json", isRegular: false),
            ListedFile(name: "pipe.json", isRegular: false), ListedFile(name: "folder", isRegular: false),
        ])
        #expect(try disk.read(directory.file("tip.json"), listedAsRegular: true) == Array("{}".utf8))
        #expect(try disk.read(directory.file("link.json"), listedAsRegular: false) == Array("{}".utf8))
        let big = directory.file("big")
        try Data(count: 2048).write(to: URL(fileURLWithPath: big))
        for path in [directory.file("pipe.json"), directory.file("folder"), directory.file("missing"), big] {
            let checked = #expect(throws: FileReadError.self) { _ = try disk.read(path) }
            let unchecked = #expect(throws: FileReadError.self) { _ = try disk.read(path, listedAsRegular: true) }
            #expect(checked != nil && checked == unchecked, "\(path)")
        }
    }

    /// What the mapping shows is the file as it was mapped: a file replaced by another (as editors and tipcat's own
    /// caches replace files, by renaming a new one over it) leaves the mapping as it was.
    @Test func aFileRenamedOverAMappedOneLeavesTheMappingAsItWas() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("strings")
        try Data("first".utf8).write(to: URL(fileURLWithPath: path))
        let mapped = try DiskFileSystem().map(path)
        try Data("second, longer".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        #expect(String(decoding: mapped.buffer, as: UTF8.self) == "first")
        #expect(String(decoding: try DiskFileSystem().read(path), as: UTF8.self) == "second, longer")
    }

    @Test func aBackgroundValueIsWaitedForOnceAndKept() {
        let value = BackgroundValue { () -> [Int] in
            usleep(20_000)
            return Array(0..<1000)
        }
        #expect(value.value.count == 1000)
        #expect(value.value == Array(0..<1000), "a second wait returns at once with the same value")
    }
}
