import Foundation
import TipcatCatalog
import TipcatCore

/// The resident kilobytes of the mapping holding `address`, from `/proc/self/smaps` (nil where there is none): how
/// tests see that a mapped file's pages were given back.
public func residentKilobytes(ofMappingAt address: UnsafeRawPointer) -> Int? {
    // Read to its end: /proc files report no size.
    guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return nil }
    defer { try? handle.close() }
    let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    let target = UInt(bitPattern: address)
    var inMapping = false
    for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
            let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
            inMapping = bounds.count == 2 && bounds[0] <= target && target < bounds[1]
        } else if inMapping, fields.first == "Rss:", fields.count >= 2 {
            return Int(fields[1])
        }
    }
    return nil
}

/// A file of `count` bytes of a fixed pattern (`shift` varies it) written at `path` and mapped
/// (`DiskFileSystem.map`): its bytes, the mapping, and a reader of the mapping's resident kilobytes.
package func mappedPatternFile(at path: String, count: Int, shift: Int) throws -> (bytes: [UInt8], mapped: FileBytes, resident: () -> Int?) {
    let bytes = (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> shift) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let mapped = try DiskFileSystem().map(path)
    let base = mapped.buffer.baseAddress
    return (bytes, mapped, { base.flatMap { residentKilobytes(ofMappingAt: $0) } })
}
