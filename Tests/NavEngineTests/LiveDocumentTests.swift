import NavModel
import NavTestSupport
import Testing

@testable import NavEngine

/// `LiveDocument.advance(to:)`, the patch a subscription group publishes,
/// against the reference: `PatchBuilder.diff` of the view's documents built
/// from scratch (PROTOCOL §6 updates; SEMANTICS R64, R65).
@Suite("Live documents: the patch of each version")
struct LiveDocumentTests {
  @Test("R64 R65 advance returns the reference diff and leaves the view's document, for every view")
  func advanceIsTheReferenceDiff() throws {
    let seed = SplitMix64.testSeed(default: 0x11FE_D0C0)
    print("LiveDocumentTests.advanceIsTheReferenceDiff: seed \(seed) (NAVD_TEST_SEED to replay)")
    var random = RandomMutations(seed: seed)
    let views: [DocumentView] = [.state, .layout(.defaults), .layout(LayoutMetrics(width: 320))]
    var state = SceneState.empty
    var documents = views.map { LiveDocument($0, of: state) }
    var patches = 0
    for step in 0..<400 {
      guard let next = try? state.applying(random.ops(seeing: state)).state else { continue }
      for (index, view) in views.enumerated() {
        let patch = documents[index].advance(to: next)
        let reference = PatchBuilder.diff(view.document(of: state), view.document(of: next))
        #expect(patch == reference, "seed \(seed) step \(step) view \(view)")
        #expect(documents[index].json == view.document(of: next), "seed \(seed) step \(step) view \(view)")
        if !patch.isEmpty { patches += 1 }
      }
      state = next
    }
    #expect(patches > 300, "only \(patches) non-empty patches checked; seed \(seed)")
  }
}
