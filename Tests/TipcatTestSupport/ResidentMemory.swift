import Foundation

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
