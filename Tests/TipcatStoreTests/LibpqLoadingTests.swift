import Foundation
import Testing
import TipcatTestSupport

/// libpq is loaded by the first PostgreSQL connection, never linked: a tipcat process without one loads none of
/// libpq's twenty-odd libraries (TLS, Kerberos, LDAP…) at start-up, and runs where libpq is not installed.
@Suite struct LibpqLoadingTests {
    @Test func tipcatDoesNotLinkLibpq() throws {
        let executable = try #require(tipcatExecutable(), "build the tipcat executable first (swift build)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd") else {
            print("skipped: no /usr/bin/ldd to list the libraries tipcat links")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [executable]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(output.contains("libsqlite3"), "\(output)")
        #expect(!output.contains("libpq"), "\(output)")
        #expect(!output.contains("libssl"), "\(output)")
    }
}
