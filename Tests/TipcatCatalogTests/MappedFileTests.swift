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
