import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatText

/// `tipcat strings status`.
struct StringsCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    // MARK: status

    func status() throws {
        let minimum = try minimumCoverage()
        let outcome = try CatalogCheck(directory: arguments.value("catalog") ?? "Catalog", context: context, externalPlugins: false)
            .requireValid(purpose: "no translation status")
        let coverage = TranslationCoverage(catalog: outcome.result.catalog)
        if arguments.flag("json") {
            context.stdout.json(Self.json(coverage))
        } else {
            context.stdout.write(Self.table(coverage))
        }
        guard let minimum else { return }
        let below = coverage.locales.filter { $0.isBelow(minimum) }
        guard !below.isEmpty else { return }
        let list = below.map { "\($0.locale) (\($0.percentText)%)" }.joined(separator: ", ")
        context.stderr.line(Sanitizer.terminalSafe(
            "error: \(below.count) \(plural(below.count, "locale")) below \(arguments.value("min-coverage") ?? "")% translated: \(list)"))
        throw CommandError.exit(.failure)
    }

    /// `--min-coverage`: a plain decimal number from 0 to 100 (`80`, `92.5`); nil when not given.
    private func minimumCoverage() throws -> Double? {
        guard let text = arguments.value("min-coverage") else { return nil }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDecimal = !text.isEmpty && parts.count <= 2 && !(parts.first?.isEmpty ?? true)
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard isDecimal, let value = Double(text), value >= 0, value <= 100 else {
            throw CommandError.usage(
                "--min-coverage takes a percentage from 0 to 100 such as 90 or 92.5, found '\(Sanitizer.terminalSafe(text))'",
                command: arguments.commandPath)
        }
        return value
    }

    /// `{"sourceLanguage", "texts", "locales": [{"locale", "translated", "needsReview", "new", "stale", "missing",
    /// "percent"}], "orphans"}`.
    static func json(_ coverage: TranslationCoverage) -> JSONValue {
        .object([
            ("sourceLanguage", .string(coverage.sourceLanguage.identifier)),
            ("texts", .int(coverage.keys.count)),
            ("locales", .array(coverage.locales.map { item in
                .object([
                    ("locale", .string(item.locale.identifier)),
                    ("translated", .int(item.translated)),
                    ("needsReview", .int(item.needsReview)),
                    ("new", .int(item.new)),
                    ("stale", .int(item.stale)),
                    ("missing", .int(item.missing)),
                    ("percent", .number(JSONNumber(
                        text: item.percentText, isInteger: false, intValue: nil, doubleValue: Double(item.percentTenths) / 10))),
                ])
            })),
            ("orphans", .int(coverage.orphanKeys.count)),
        ])
    }

    /// One row per locale, then the sums over all locales and a line with the text and orphan counts. Names are
    /// left-aligned, numbers right-aligned.
    static func table(_ coverage: TranslationCoverage) -> String {
        func row(_ name: String, _ item: TranslationCoverage.LocaleCoverage) -> [String] {
            [name, String(item.translated), String(item.needsReview), String(item.new), String(item.stale),
             String(item.missing), item.percentText + "%"]
        }
        let header = ["LOCALE", "TRANSLATED", "NEEDS REVIEW", "NEW", "STALE", "MISSING", "PERCENT"]
        let rows = [header] + coverage.locales.map { row($0.locale.identifier, $0) } + [row("total", coverage.total)]
        let cells = rows.map { $0.map(Sanitizer.terminalSafe) }
        var widths = [Int](repeating: 0, count: header.count)
        for line in cells {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], DisplayWidth.of(cell)) }
        }
        var output = ""
        for line in cells {
            output += line.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - DisplayWidth.of(cell))
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ") + "\n"
        }
        let texts = coverage.keys.count
        let orphans = coverage.orphanKeys.count
        output += "\(texts) \(plural(texts, "text")) in \(coverage.sourceLanguage), \(coverage.locales.count) \(plural(coverage.locales.count, "locale")); "
            + "\(orphans) orphan \(plural(orphans, "key")) (matching no tip text)\n"
        return output
    }
}
