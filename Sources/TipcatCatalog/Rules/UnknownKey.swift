public import TipcatCore

extension DiagnosticRule {
    /// An object key the format does not define.
    public static let unknownKey = DiagnosticRule(
        "unknown-key", .error, stage: .catalog,
        summary: "an object key the format does not define (with did-you-mean)",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "A", "title": "A tip", "titel": "A tip"}"##]),
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}

extension Diagnostic {
    /// `unknown key 'titel' in tip 'A'; did you mean 'title'?`.
    static func unknownKey(_ key: String, in subject: String, allowed: [String], at location: SourceLocation) -> Diagnostic {
        Diagnostic("unknown key '\(key)' in \(subject)" + Suggestions.didYouMean(key, in: allowed), rule: .unknownKey, at: location)
    }

    /// `unknown platform 'macos' in the platforms of tip 'MapTip'; did you mean 'mac'? (platforms: …)`. Apple's
    /// OS and String Catalog device names (`macos`, `applewatch`, `tvos`) suggest tipcat's.
    static func unknownPlatform(_ name: String, in subject: String, at location: SourceLocation) -> Diagnostic {
        let aliases = ["ios": "iphone", "ipados": "ipad", "macos": "mac", "osx": "mac", "applewatch": "watch", "watchos": "watch",
                       "appletv": "tv", "tvos": "tv", "applevision": "vision", "visionos": "vision", "xros": "vision"]
        let suggestion = aliases[name.lowercased()] ?? Suggestions.closest(to: name, in: Device.names)
        return Diagnostic("unknown platform '\(name)' in \(subject)" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                          + " (platforms: \(Device.names.joined(separator: ", ")))",
                          rule: .unknownKey, at: location)
    }
}
