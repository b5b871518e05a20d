import NavModel
import NavTestSupport
import Testing

@testable import NavEngine

/// A layout view's versions keep their layouts and make their JSON when read
/// (`VersionedDocument`); the document a view shows of a state, resolved and
/// encoded from scratch (`DocumentView.document(of:)`), stays the reference.
@Suite("Versioned documents: a version's document is its state's, however the live one moves on")
struct VersionedDocumentTests {
  @Test("§6 seeded random versions: each version's document, read after later ones, is the reference")
  func versionsKeepTheirDocuments() throws {
    let seed = SplitMix64.testSeed(default: 20_261_201)
    print("VersionedDocumentTests: seed \(seed) (NAVD_TEST_SEED to replay)")
    var mutations = RandomMutations(seed: seed)
    var checked = 0
    for view in [DocumentView.state, .layout(LayoutMetrics(width: nil)), .layout(LayoutMetrics(width: 375))] {
      var state = SceneState.empty
      var live = LiveDocument(view, of: state)
      // Versions are read only after the live document has moved past them, some
      // read once before (a made document must not change afterwards either).
      var versions: [(VersionedDocument, SceneState)] = [(live.versioned(0), state)]
      for version in 1...300 {
        let ops = mutations.ops(seeing: state)
        guard let result = try? state.applying(ops) else { continue }
        state = result.state
        _ = live.update(to: state, change: LayoutChange(ops: ops, in: state))
        versions.append((live.versioned(UInt64(version)), state))
        if mutations.chance(0.3) { _ = versions.randomElement(using: &mutations.rng)?.0.document }
      }
      for (versioned, state) in versions {
        #expect(
          versioned.document == view.document(of: state),
          "seed \(seed), view \(view), version \(versioned.version)")
        checked += 1
      }
    }
    #expect(checked > 300, "only \(checked) versions checked; seed \(seed)")
  }
}
