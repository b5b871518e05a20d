import NavTestSupport
import Testing

@testable import NavModel

/// `LayoutDocument` against the reference it replaces on the hot path: the
/// full `LayoutResolver.resolve(_:metrics:)`, its `json`, and
/// `PatchBuilder.diff` of two documents built from scratch (SEMANTICS R62,
/// R64, R65), over long seeded random sequences of every op kind, each
/// update told only what its ops may have changed (`LayoutChange`).
@Suite("Layout document: incremental resolve and encode")
struct LayoutDocumentTests {
  static let sequences = 80
  static let opsPerSequence = 60

  @Test(
    "R9–R18 R19–R57 R62 R64 R65 every op kind: the incremental layout is the resolver's, its patch the reference diff"
  )
  func everyOpKind() throws {
    var updates = 0
    var kinds: [String: Int] = [:]
    let (seed, shared) = try Self.drive(
      "everyOpKind", seed: 0x1A70_0D0C_0000, sequences: Self.sequences, steps: Self.opsPerSequence,
      nextOps: { generator, state in generator.batch(in: state, count: generator.rng.chance(70) ? 1 : 3) },
      observe: { ops, _, _, documents in
        for op in ops { kinds[op.name, default: 0] += documents }
        updates += documents
      })
    // Guard against a generator whose ops are all rejected, or that misses a kind.
    #expect(updates > Self.sequences * Self.opsPerSequence * 2, "only \(updates) updates checked; seed \(seed)")
    #expect(shared > 1000, "only \(shared) widths took another's patch; seed \(seed)")
    for name in Op.names {
      #expect(
        kinds[name, default: 0] >= 100, "op \(name) applied in only \(kinds[name, default: 0]) updates; seed \(seed)")
    }
  }

  @Test(
    "§6 R62 R64 R65 widths of one placement share one patch: many widths, compact and not, every op kind, the reference diff"
  )
  func sharedPlacements() throws {
    var kinds: [String: Int] = [:]
    let (seed, shared) = try Self.drive(
      "sharedPlacements", seed: 0x1A70_0D0C_0006, sequences: 24, steps: 50,
      metrics: { generator in
        (0..<12).map { index in
          LayoutMetrics(width: Double(generator.rng.int(120...600)), compact: index % 3 == 0)
        }
      },
      nextOps: { generator, state in generator.batch(in: state, count: generator.rng.chance(70) ? 1 : 3) },
      observe: { ops, _, _, documents in for op in ops { kinds[op.name, default: 0] += documents } })
    #expect(shared > 2000, "only \(shared) widths took another's patch; seed \(seed)")
    for name in Op.names {
      #expect(kinds[name, default: 0] >= 50, "op \(name) in only \(kinds[name, default: 0]) updates; seed \(seed)")
    }
  }

  @Test("§6 R62 R64 R65 several mutations as one update (a span): the change of all their ops, the reference diff")
  func spans() throws {
    var multi = 0
    let (seed, _) = try Self.drive(
      "spans", seed: 0x1A70_0D0C_0004, sequences: 30, steps: 40,
      nextOps: { generator, state in generator.batch(in: state, count: generator.rng.int(2...6)) },
      observe: { ops, _, _, _ in if ops.count > 1 { multi += 1 } })
    #expect(multi > 600, "only \(multi) multi-op updates; seed \(seed)")
  }

  @Test("R62 R64 R65 an update told nothing of the change (`LayoutChange.everything`) is the reference too")
  func unknownChange() throws {
    let seed = SplitMix64.testSeed(default: 0x1A70_0D0C_0005)
    var generator = LayoutOpGenerator(rng: SplitMix64(seed: seed))
    for sequence in 0..<20 {
      var state = SceneState.empty
      let allMetrics = generator.metrics()
      var documents = allMetrics.map { LayoutDocument(state, metrics: $0) }
      for step in 0..<40 {
        guard let next = try? state.applying(generator.batch(in: state, count: 2)).state else { continue }
        for (index, metrics) in allMetrics.enumerated() {
          let before = documents[index].json
          let patch = documents[index].update(to: next, change: .everything)
          let reference = LayoutResolver.resolve(next, metrics: metrics).json
          let context = "seed \(seed) sequence \(sequence) step \(step) metrics \(String(describing: metrics))"
          #expect(documents[index].json == reference, "\(context)")
          #expect(patch == PatchBuilder.diff(before, reference), "\(context)")
        }
        state = next
      }
    }
  }

  /// One character each (R31), so a title made of them is as wide as its count:
  /// escapes and non-ASCII included, for the patch's value.
  static let titleCharacters = ["a", "Z", " ", "7", "é", "\"", "\\", "/", "~", "👩‍👩‍👧‍👦"]

  @Test("R31 R62 R64 runs of title changes of one width, then other changes: the reference document and diff")
  func titleRuns() throws {
    var counts = (retitles: 0, afterRetitles: 0, previousRetitled: false)
    let (seed, _) = try Self.drive("titleRuns", seed: 0x1A70_0D0C_0003, sequences: 60, steps: 60) { generator, state in
      guard let top = state.navigationBar.topItem, generator.rng.chance(75) else { return [generator.op(in: state)] }
      // The same number of characters: the title keeps its width (the fast path).
      let count = top.title?.count ?? 0
      let title = (0..<count).map { _ in generator.rng.pick(Self.titleCharacters) }.joined()
      return [
        .updateNavigationItem(top.id, [.title(count == 0 && generator.rng.chance(50) ? nil : title)], animated: false)
      ]
    } observe: { ops, state, next, _ in
      let retitled =
        ops.count == 1 && state.navigationBar.topItem?.title != next.navigationBar.topItem?.title
        && state.navigationBar.topItem?.id == next.navigationBar.topItem?.id
      if retitled { counts.retitles += 1 } else if counts.previousRetitled { counts.afterRetitles += 1 }
      counts.previousRetitled = retitled
    }
    #expect(counts.retitles > 1000, "only \(counts.retitles) title-only changes; seed \(seed)")
    #expect(counts.afterRetitles > 200, "only \(counts.afterRetitles) other changes after title changes; seed \(seed)")
  }

  /// Runs `sequences` sequences of `steps` batches of ops (`nextOps`) from an empty
  /// scene, with a document per metrics (`metrics`, drawn per sequence) following every
  /// state, each update given the `LayoutChange` of its batch (`expectReferenceUpdate`);
  /// `observe` sees each batch that applied, the states before and after, and the
  /// number of documents. Returns the seed and how many updates took another width's patch.
  @discardableResult
  static func drive(
    _ test: String, seed defaultSeed: UInt64, sequences: Int, steps: Int,
    metrics: (inout LayoutOpGenerator) -> [LayoutMetrics?] = { $0.metrics() },
    nextOps: (inout LayoutOpGenerator, SceneState) -> [Op],
    observe: (_ ops: [Op], _ state: SceneState, _ next: SceneState, _ documents: Int) -> Void
  ) throws -> (seed: UInt64, shared: Int) {
    let seed = SplitMix64.testSeed(default: defaultSeed)
    print("LayoutDocumentTests.\(test): seed \(seed) (NAVD_TEST_SEED to replay)")
    var generator = LayoutOpGenerator(rng: SplitMix64(seed: seed))
    var shared = 0
    for sequence in 0..<sequences {
      var state = SceneState.empty
      let allMetrics = metrics(&generator)
      var documents = allMetrics.map { LayoutDocument(state, metrics: $0) }
      for step in 0..<steps {
        let ops = nextOps(&generator, state)
        guard let result = try? state.applying(ops) else { continue }
        // Every other sequence, the widths of a step share what they resolve alike, as a
        // committed span's views do (`SharedResolution`).
        shared += try expectReferenceUpdate(
          &documents, metrics: allMetrics, from: state, to: result.state,
          change: LayoutChange(ops: ops, in: result.state), shared: sequence % 2 == 0 ? SharedResolution() : nil,
          context: "seed \(seed) (NAVD_TEST_SEED to replay) sequence \(sequence) step \(step) ops \(ops)")
        observe(ops, state, result.state, allMetrics.count)
        state = result.state
      }
    }
    return (seed, shared)
  }

  /// Moves each of `documents` (one per metrics) from `state` to `next` and expects the
  /// reference: its layout and document those resolved from scratch, its patch the diff
  /// of the two reference documents, which also takes its old document to its new; and
  /// the patch of an earlier width whose step shares with this one's (`LayoutStep.Sharing`,
  /// what the engine sends instead) that reference too. Returns how many widths shared.
  @discardableResult
  static func expectReferenceUpdate(
    _ documents: inout [LayoutDocument], metrics allMetrics: [LayoutMetrics?], from state: SceneState,
    to next: SceneState, change: LayoutChange, shared: SharedResolution? = nil, context: String
  ) throws -> Int {
    var byPlacement: [LayoutStep.Sharing: [PatchOperation]] = [:]
    var sharedPatches = 0
    for (index, metrics) in allMetrics.enumerated() {
      let before = documents[index].json
      let old = documents[index].layout
      let step = documents[index].step(to: next, change: change, shared: shared)
      let patch = step.patch(from: old, to: documents[index].layout)
      let layout = LayoutResolver.resolve(next, metrics: metrics)
      let reference = layout.json
      let context = "metrics \(String(describing: metrics)): \(context)"
      #expect(documents[index].layout == layout, "layout, \(context)")
      #expect(documents[index].json == reference, "document, \(context)")
      let referencePatch = PatchBuilder.diff(LayoutResolver.resolve(state, metrics: metrics).json, reference)
      #expect(patch == referencePatch, "patch, \(context)")
      #expect(PatchBuilder.diff(before, documents[index].json) == referencePatch, "diff of the documents, \(context)")
      #expect(try PatchApplier.apply(patch, to: before) == reference, "patch applies: \(context)")
      if let sharing = step.sharing {
        if let earlier = byPlacement[sharing] {
          #expect(earlier == referencePatch, "another width's shared patch, \(context)")
          sharedPatches += 1
        } else {
          byPlacement[sharing] = patch
        }
      }
    }
    return sharedPatches
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
