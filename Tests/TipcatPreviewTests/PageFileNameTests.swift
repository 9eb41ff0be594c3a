import Testing
@testable import TipcatPreview

@Suite struct PageFileNameTests {
    @Test func keepsDotsAndDashes() {
        #expect(PageFileName.forTip("com.example.trails.plan-tomorrow") == "com.example.trails.plan-tomorrow.html")
        #expect(PageFileName.forTip("NewTrailTip") == "NewTrailTip.html")
    }
}
