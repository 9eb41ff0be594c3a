import Testing
import TipcatTestSupport

/// `tipcat engine … --param` with an optional parameter: left out or `name=`, the instance has no value and
/// its text takes the nil case; with a value, the value.
@Suite struct EngineOptionalParameterTests {
    @Test func showWithAndWithoutTheOptionalValue() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite"), "--style", "plain"]
        let absent = run(["engine", "show", "FindTrailheadTip", "--param", "count=2", "--param", "trailhead="] + common)
        #expect(absent.status == .success, "\(absent.stderr)")
        #expect(absent.stdout.contains("Find the trailhead\n"), "\(absent.stdout)")
        let named = run(["engine", "show", "FindTrailheadTip", "--param", "count=2", "--param", "trailhead=Mill B"] + common)
        #expect(named.stdout.contains("Find Mill B\n"), "\(named.stdout)\(named.stderr)")
        let wrong = run(["engine", "show", "FindTrailheadTip", "--param", "count=2", "--param", "trailhed=x"] + common)
        #expect(wrong.status == .failure)
        #expect(wrong.stderr.hasPrefix("error: FindTrailheadTip has no parameter 'trailhed'"), "\(wrong.stderr)")
    }
}
