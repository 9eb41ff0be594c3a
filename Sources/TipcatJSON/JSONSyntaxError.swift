public import TipcatCore

/// Why a file is not valid JSON, and the byte offset of the offending byte.
///
/// For an unterminated string the offset is its opening quote; for an unexpected end of file it is the
/// file's length (which `SourceFile.location(ofByte:)` maps to the end of the last line).
public struct JSONSyntaxError: TipcatError, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var offset: Int

    /// An error with `message` at byte `offset`.
    public init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// `message (at byte N)`; use `location(in:)` for `file:line:col`.
    public var description: String { "\(message) (at byte \(offset))" }

    /// Where the error is in `source`, as people count lines and columns.
    public func location(in source: SourceFile) -> SourceLocation {
        source.location(ofByte: offset)
    }

    /// The error as an `invalid-json` error diagnostic located in `source`.
    public func diagnostic(in source: SourceFile) -> Diagnostic {
        Diagnostic(message, rule: .invalidJSON, at: location(in: source))
    }
}
