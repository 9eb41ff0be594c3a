import Foundation

/// Runs shells for the completion-script tests; tests that need a missing shell are skipped.
enum ShellRunner {
    /// The absolute path of `name` on `PATH`, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static var hasBash: Bool { find("bash") != nil }
    static var hasZsh: Bool { find("zsh") != nil }
    static var hasFish: Bool { find("fish") != nil }

    /// Runs `shell` with `arguments` in `directory`; returns the exit status and both outputs.
    static func run(_ shell: String, _ arguments: [String], in directory: URL? = nil) throws
        -> (status: Int32, output: String, errors: String)
    {
        guard let executable = find(shell) else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory?.path ?? NSTemporaryDirectory()
        environment["XDG_CONFIG_HOME"] = directory?.appendingPathComponent(".config").path
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    /// A fresh directory and the script in it (`remove()` when done: tests leave nothing in the temporary directory).
    struct Fixture {
        let directory: URL
        let script: URL

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// A fresh directory holding `a.json`, `b.txt`, `c.xcstrings` and `sub/x.json`, and the script for `shell`.
    static func fixture(script: String, shell: String) throws -> Fixture {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tipcat-completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for file in ["a.json", "b.txt", "c.xcstrings", "sub/x.json"] {
            try Data().write(to: directory.appendingPathComponent(file))
        }
        let scriptURL = directory.appendingPathComponent(".completion.\(shell)")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        return Fixture(directory: directory, script: scriptURL)
    }
}
