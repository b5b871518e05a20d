import NavModel
import NavTestSupport
import Testing

/// `LayoutDocument` against the reference it replaces on the hot path: the
/// full `LayoutResolver.resolve(_:metrics:)`, its `json`, and
/// `PatchBuilder.diff` of two documents built from scratch (SEMANTICS R62,
/// R64, R65).
@Suite("Layout document: incremental resolve and encode")
struct LayoutDocumentTests {
  static let sequences = 150
  static let opsPerSequence = 40

  @Test("R62 R64 R65 an updated document is the reference document, and its patch is the reference diff")
  func randomSequences() throws {
    let seed = SplitMix64.testSeed(default: 0x1A70_0D0C_0000)
    print("LayoutDocumentTests.randomSequences: seed \(seed) (NAVD_TEST_SEED to replay)")
    var generator = LayoutOpGenerator(rng: SplitMix64(seed: seed))
    var updates = 0
    var retitles = 0
    for sequence in 0..<Self.sequences {
      var state = SceneState.empty
      let allMetrics = generator.metrics()
      var documents = allMetrics.map { LayoutDocument(state, metrics: $0) }
      for step in 0..<Self.opsPerSequence {
        let ops = (0..<(generator.rng.chance(80) ? 1 : 2)).map { _ in generator.op(in: state) }
        guard let result = try? state.applying(ops) else { continue }
        let context = "seed \(seed) (NAVD_TEST_SEED to replay) sequence \(sequence) step \(step) ops \(ops)"
        for (index, metrics) in allMetrics.enumerated() {
          let before = documents[index].json
          let patch = documents[index].update(to: result.state)
          let layout = LayoutResolver.resolve(result.state, metrics: metrics)
          let reference = layout.json
          #expect(documents[index].layout == layout, "layout, metrics \(String(describing: metrics)): \(context)")
          #expect(documents[index].json == reference, "document, metrics \(String(describing: metrics)): \(context)")
          let referencePatch = PatchBuilder.diff(LayoutResolver.resolve(state, metrics: metrics).json, reference)
          #expect(patch == referencePatch, "patch, metrics \(String(describing: metrics)): \(context)")
          #expect(
            PatchBuilder.diff(before, documents[index].json) == referencePatch,
            "diff of the documents, metrics \(String(describing: metrics)): \(context)")
          #expect(try PatchApplier.apply(patch, to: before) == reference, "patch applies: \(context)")
          if case .updateNavigationItem(_, let fields, _) = ops.last, fields.count == 1, case .title = fields[0] {
            retitles += 1
          }
          updates += 1
        }
        state = result.state
      }
    }
    // Guard against a generator whose ops are all rejected.
    #expect(updates > Self.sequences * Self.opsPerSequence, "only \(updates) updates checked; seed \(seed)")
    // The title-only fast path (`LayoutResolver.retitled`) must be exercised.
    #expect(retitles > Self.sequences * Self.opsPerSequence / 10, "only \(retitles) retitles checked; seed \(seed)")
  }

  @Test("R19 R46 a bar's layout depends only on the inputs the document compares")
  func barInputs() {
    let seed = SplitMix64.testSeed(default: 0x1A70_0D0C_0001)
    print("LayoutDocumentTests.barInputs: seed \(seed) (NAVD_TEST_SEED to replay)")
    var generator = LayoutOpGenerator(rng: SplitMix64(seed: seed))
    var state = SceneState.empty
    var deepStacks = 0
    for step in 0..<2000 {
      guard let result = try? state.applying([generator.op(in: state)]) else { continue }
      state = result.state
      if state.navigationBar.items.count > 2 { deepStacks += 1 }
      // Blanking what a bar does not read, and changing what it does not
      // read, leaves that bar's layout as it was.
      var unrelated = state
      if state.navigationBar.items.count >= 2 {
        unrelated.navigationBar.items.insert(NavigationItem(id: "deep", title: "Deep"), at: 0)
      }
      unrelated.toolbar = ToolbarState(items: [], hidden: !state.toolbar.hidden)
      var noNavigationBar = state
      noNavigationBar.navigationBar = NavigationBarState()
      for metrics in generator.metrics() {
        let layout = LayoutResolver.resolve(state, metrics: metrics)
        let context = "seed \(seed) step \(step) metrics \(String(describing: metrics))"
        #expect(LayoutResolver.resolve(unrelated, metrics: metrics).navigationBar == layout.navigationBar, "\(context)")
        #expect(LayoutResolver.resolve(noNavigationBar, metrics: metrics).toolbar == layout.toolbar, "\(context)")
      }
    }
    #expect(deepStacks > 100, "the generator rarely built a stack deeper than 2; seed \(seed)")
  }
}
