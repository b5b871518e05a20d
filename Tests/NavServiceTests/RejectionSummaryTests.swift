import NavModel
import NavServer
import NavService
import Testing

@Suite("io.navd's errors in the call-rejected record (navd(8), --log-target: SCENE, VERSION)")
struct RejectionSummaryTests {
  @Test("an io.navd error's record carries its message, its scene and the scene's version")
  func fields() {
    let summary = RejectionSummary.navd(
      error: "io.navd.Conflict",
      parameters: ["message": "fields changed since baseVersion 3", "scene": "main", "currentVersion": 7])
    let fields = Dictionary(summary.fields.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    #expect(summary.message == "fields changed since baseVersion 3")
    #expect(fields["scene"] == "main" && fields["version"] == "7")
  }

  @Test("an error without a currentVersion gives no version field, and one without a message its name")
  func noVersion() {
    let summary = RejectionSummary.navd(error: "io.navd.SceneNotFound", parameters: ["scene": "x"])
    #expect(!summary.fields.contains { $0.key == "version" })
    #expect(summary.message == "io.navd.SceneNotFound")
  }

  @Test("serveNavd reads rejected calls with io.navd's summary")
  func serveNavd() {
    var configuration = ServerConfiguration(socketPath: "/nonexistent")
    configuration.serveNavd()
    let summary = configuration.rejectionSummary("io.navd.SceneNotFound", ["message": "no scene x", "scene": "x"])
    #expect(summary.message == "no scene x" && summary.fields.map(\.key) == ["scene"])
  }
}
