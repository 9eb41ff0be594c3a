import Synchronization
import TipcatCatalog
import TipcatCore

/// What the engine reads of every tip when it starts. The rest of a tip (its custom-ID template, actions, rule
/// texts) is read only when a call needs it (`EngineTips`).
package struct TipFacts: Sendable {
    package var id: TipID
    /// The tip's own parameters, in declaration order (the tip has an instance per set of values when any).
    package var parameters: [ValueType.RecordField]
    package var options: TipOptions
    package var republish: RepublishPolicy
    /// The number of its rules (each compiles to one program).
    package var ruleCount: Int

    package init(id: TipID, parameters: [ValueType.RecordField], options: TipOptions, republish: RepublishPolicy, ruleCount: Int) {
        self.id = id
        self.parameters = parameters
        self.options = options
        self.republish = republish
        self.ruleCount = ruleCount
    }

    /// The type of the parameter `name`, when the tip declares it.
    package func parameter(_ name: String) -> ValueType? { parameters.first { $0.name == name }?.type }

    package init(_ tip: Tip) {
        self.init(id: tip.id, parameters: tip.parameters, options: tip.options, republish: tip.republish, ruleCount: tip.ruleCount)
    }
}

/// An engine catalog's whole tips: the catalog's own array, or (from a prepared snapshot) decoded one at a time
/// when a call first asks for one. Deciding which tip shows reads only `TipFacts` and compiled rules, so most
/// engine calls decode no tip.
final class EngineTips: Sendable {
    private enum Source: Sendable {
        case given([Tip])
        case decoded(@Sendable (Int) -> Tip)
    }

    let count: Int
    private let source: Source
    private let decoded = Mutex<[Int: Tip]>([:])
    private let whole = Mutex<[Tip]?>(nil)

    init(_ tips: [Tip]) {
        count = tips.count
        source = .given(tips)
    }

    /// `count` tips, the one at an index decoded by `decode` when first asked.
    init(count: Int, decode: @escaping @Sendable (Int) -> Tip) {
        self.count = count
        source = .decoded(decode)
    }

    /// Whether the tips were given whole (nothing is decoded).
    var isGiven: Bool {
        if case .given = source { return true }
        return false
    }

    /// The tip at `index` (`0..<count`).
    func tip(_ index: Int) -> Tip {
        switch source {
        case .given(let tips): return tips[index]
        case .decoded(let decode):
            if let tips = whole.withLock({ $0 }) { return tips[index] }
            if let known = decoded.withLock({ $0[index] }) { return known }
            let tip = decode(index)
            decoded.withLock { $0[index] = tip }
            return tip
        }
    }

    /// Every tip, in catalog order (decoded once, on every core, the first time).
    var all: [Tip] {
        switch source {
        case .given(let tips): return tips
        case .decoded(let decode):
            if let tips = whole.withLock({ $0 }) { return tips }
            let tips = concurrentChunks(count: count, chunkSize: 512) { range in range.map(decode) }.joinedArrays()
            whole.withLock { $0 = tips }
            return tips
        }
    }
}
