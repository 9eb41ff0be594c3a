import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine

/// Every script under Scenarios/ runs against the sample catalog and must pass.
@Suite struct ScenarioTests {
    static let scripts: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: scenarioDirectory)) ?? []
        return names.filter { $0.hasSuffix(".tipsim") }.sorted()
    }()

    @Test func theScenariosAreThere() {
        #expect(Self.scripts == [
            "compass-group.tipsim", "demo-week.tipsim", "favorite-backyard.tipsim", "food-event.tipsim",
            "max-display-count.tipsim", "new-trail-custom-ids.tipsim", "override-precedence.tipsim",
            "transient-restart.tipsim", "weekly-frequency.tipsim",
        ])
    }

    @Test(arguments: scripts) func scenarioPasses(_ name: String) async throws {
        let path = scenarioDirectory + "/" + name
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let (script, diagnostics) = SimulationScript.parse(text, path: "Scenarios/" + name, catalog: sampleCatalog)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        let result = SimulationRunner(catalog: sampleCatalog).run(script)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        #expect(result.stepsRun == script.steps.count)
        #expect(result.expectationsMet > 0)
    }

    @Test func demoWeekTranscriptSaysWhichTipAppearsWhen() async throws {
        let text = try String(contentsOfFile: scenarioDirectory + "/demo-week.tipsim", encoding: .utf8)
        let (script, _) = SimulationScript.parse(text, path: "demo-week.tipsim", catalog: sampleCatalog)
        let result = SimulationRunner(catalog: sampleCatalog).run(script)
        let shown = result.transcript.filter(\.nextChanged).map { "\($0.time) \($0.next?.rawValue ?? "none")" }
        #expect(shown == [
            "2026-01-05T08:00:00Z HighlightTip", "2026-01-05T08:01:00Z none",
            "2026-01-06T08:00:00Z InlineTip", "2026-01-06T12:01:00Z none",
            "2026-01-07T08:00:00Z ParameterRuleTip", "2026-01-07T08:01:00Z none",
            "2026-01-08T09:00:00Z ShowLocationTip", "2026-01-08T09:01:00Z none",
            "2026-01-09T09:00:00Z FavoriteBackyardTip", "2026-01-09T12:01:00Z none",
            "2026-01-10T08:00:00Z OptionTip", "2026-01-10T08:05:00Z none",
            "2026-01-10T09:00:00Z RotateMapTip", "2026-01-10T09:01:00Z none",
        ])
        let transcript = result.transcriptText(changesOnly: true)
        #expect(transcript.contains("line 6: at 2026-01-05T08:00 set launchCount 1\n" + String(repeating: " ", count: 22) + "HighlightTip: new → available"))
        #expect(transcript.contains("restarted: state kept, transient parameters reset"))
        #expect(transcript.contains("OptionTip: available → invalidated(displayDurationExceeded)"))
    }
}
