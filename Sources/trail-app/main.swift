// trail-app: a command-line "trail app" built on tipcat's library products only (TipcatEngine,
// TipcatEngineStore, TipcatEngineBundle). Each run is one app session: it loads the published catalog, opens
// the device state, reports what the user did (closed the tip the last session left on screen, logged in,
// opened a backyard's detail view), asks the engine for the tip to show, shows it, and exits; the state file
// carries everything to the next run.
//
//   trail-app --bundle tips.bundle.json --state trail-state.sqlite [--now 2026-01-05T08:00:00Z] [--visits 2]
//   trail-app --export-dir public/ --channel production --state trail-state.sqlite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TipcatEngine
import TipcatEngineBundle
import TipcatEngineStore

/// The command line.
struct Options {
    var bundle: String?
    var exportDirectory: String?
    var channel = "production"
    var state = "trail-state.sqlite"
    var now: String?
    var visits = 2
}

/// An error for the user, and the exit status it ends the run with.
struct Failure: Error {
    var message: String
    var status: Int32 = 1
}

/// `text` with control characters (terminal escapes included) replaced by U+FFFD, for printing text that comes
/// from files and arguments.
func printable(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) ? "\u{FFFD}" : scalar
    }))
}

func parse(_ arguments: ArraySlice<String>) throws(Failure) -> Options {
    var options = Options()
    var rest = arguments
    while let flag = rest.popFirst() {
        guard let value = rest.popFirst() else { throw Failure(message: "\(printable(flag)) needs a value", status: 64) }
        switch flag {
        case "--bundle": options.bundle = value
        case "--export-dir": options.exportDirectory = value
        case "--channel": options.channel = value
        case "--state": options.state = value
        case "--now": options.now = value
        case "--visits":
            guard let visits = Int(value), visits >= 0, visits <= 1000 else {
                throw Failure(message: "--visits takes a number from 0 to 1000, not '\(printable(value))'", status: 64)
            }
            options.visits = visits
        default: throw Failure(message: "unknown option '\(printable(flag))'", status: 64)
        }
    }
    guard (options.bundle == nil) != (options.exportDirectory == nil) else {
        throw Failure(message: "give the catalog with --bundle FILE or --export-dir DIR", status: 64)
    }
    return options
}

func run(_ options: Options) throws(Failure) {
    // The published catalog, checked against its hashes.
    let bundle: EngineBundle
    do {
        if let path = options.bundle {
            bundle = try EngineBundle(contentsOf: path)
        } else {
            bundle = try EngineBundle(exportDirectory: options.exportDirectory ?? ".", channel: options.channel)
        }
    } catch {
        throw Failure(message: printable(error.description))
    }
    var clock: any TipClock = SystemClock()
    if let text = options.now {
        guard let time = Timestamp(iso8601: text) else {
            throw Failure(message: "--now takes an ISO 8601 time such as 2026-01-05T08:00:00Z, not '\(printable(text))'", status: 64)
        }
        clock = FixedClock(time)
    }
    do {
        // The device's state: donations, parameters and tip statuses survive the process.
        var store = try SQLiteTipStateStore(path: options.state)
        store.clock = clock
        var engine = try bundle.session(store: store, configuration: TipEngineConfiguration(clock: clock))

        // A tip left on screen by the last session: the user closes it now.
        for summary in try engine.tips() where summary.isOnScreen {
            try engine.invalidate(summary.instance, reason: .tipClosed)
            print("the user closed \(printable(summary.instance.rawValue))")
        }

        // What the user did in this session.
        try engine.setParameter("isLoggedIn", to: .bool(true))
        for _ in 0..<options.visits {
            try engine.donate("entered-backyard-detail-view", ["backyardID": .int(3)])
        }
        let visits = try store.donationCount(of: "entered-backyard-detail-view")
        print("device \(try store.deviceID()): \(visits) visits to backyard 3 stored in \(printable(options.state))")

        // The tip slot: show what the engine picks, and report it displayed.
        guard let tip = try engine.next() else {
            print("no tip to show yet")
            return
        }
        try engine.displayed(tip)
        let shown = try engine.tips().first { $0.instance == tip }
        print("showing \(printable(tip.rawValue)) (display \(shown?.displayCount ?? 1))")
    } catch let error as TipEngineError {
        throw Failure(message: printable(error.description))
    } catch let error as TipStateStoreError {
        throw Failure(message: printable(error.description))
    } catch {
        throw Failure(message: printable("\(error)"))
    }
}

do {
    try run(try parse(CommandLine.arguments.dropFirst()))
} catch {
    let line = Array("trail-app: error: \(error.message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(error.status)
}
