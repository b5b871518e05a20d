import NavTestSupport
import Testing

@testable import NavModel

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
    var updates = 0
    var retitles = 0
    let seed = try Self.drive(
      "randomSequences", seed: 0x1A70_0D0C_0000, sequences: Self.sequences, steps: Self.opsPerSequence,
      nextOps: { generator, state in (0..<(generator.rng.chance(80) ? 1 : 2)).map { _ in generator.op(in: state) } },
      observe: { ops, _, _, documents in
        if case .updateNavigationItem(_, let fields, _) = ops.last, fields.count == 1, case .title = fields[0] {
          retitles += documents
        }
        updates += documents
      })
    // Guard against a generator whose ops are all rejected.
    #expect(updates > Self.sequences * Self.opsPerSequence, "only \(updates) updates checked; seed \(seed)")
    // The title-only fast path (`LayoutResolver.retitle`) must be exercised.
    #expect(retitles > Self.sequences * Self.opsPerSequence / 10, "only \(retitles) retitles checked; seed \(seed)")
  }

  /// One character each (R31), so a title made of them is as wide as its count:
  /// escapes and non-ASCII included, for the patch's value.
  static let titleCharacters = ["a", "Z", " ", "7", "é", "\"", "\\", "/", "~", "👩‍👩‍👧‍👦"]

  @Test("R31 R62 R64 runs of title changes of one width, then other changes: the reference document and diff")
  func titleRuns() throws {
    var counts = (retitles: 0, afterRetitles: 0, previousRetitled: false)
    let seed = try Self.drive("titleRuns", seed: 0x1A70_0D0C_0003, sequences: 60, steps: 60) { generator, state in
      guard let top = state.navigationBar.topItem, generator.rng.chance(75) else { return [generator.op(in: state)] }
      // The same number of characters: the title keeps its width (the fast path).
      let count = top.title?.count ?? 0
      let title = (0..<count).map { _ in generator.rng.pick(Self.titleCharacters) }.joined()
      return [
        .updateNavigationItem(top.id, [.title(count == 0 && generator.rng.chance(50) ? nil : title)], animated: false)
      ]
    } observe: { _, state, next, _ in
      let retitled = Self.referenceOnlyTopTitleChanged(from: state, to: next)
      if retitled { counts.retitles += 1 } else if counts.previousRetitled { counts.afterRetitles += 1 }
      counts.previousRetitled = retitled
    }
    #expect(counts.retitles > 1000, "only \(counts.retitles) title-only changes; seed \(seed)")
    #expect(counts.afterRetitles > 200, "only \(counts.afterRetitles) other changes after title changes; seed \(seed)")
  }

  /// Runs `sequences` sequences of `steps` batches of ops (`nextOps`) from an empty
  /// scene, with a document per metrics following every state (`expectReferenceUpdate`);
  /// `observe` sees each batch that applied, the states before and after, and the
  /// number of documents. Returns the seed.
  static func drive(
    _ test: String, seed defaultSeed: UInt64, sequences: Int, steps: Int,
    nextOps: (inout LayoutOpGenerator, SceneState) -> [Op],
    observe: (_ ops: [Op], _ state: SceneState, _ next: SceneState, _ documents: Int) -> Void
  ) throws -> UInt64 {
    let seed = SplitMix64.testSeed(default: defaultSeed)
    print("LayoutDocumentTests.\(test): seed \(seed) (NAVD_TEST_SEED to replay)")
    var generator = LayoutOpGenerator(rng: SplitMix64(seed: seed))
    for sequence in 0..<sequences {
      var state = SceneState.empty
      let allMetrics = generator.metrics()
      var documents = allMetrics.map { LayoutDocument(state, metrics: $0) }
      for step in 0..<steps {
        let ops = nextOps(&generator, state)
        guard let result = try? state.applying(ops) else { continue }
        try expectReferenceUpdate(
          &documents, metrics: allMetrics, from: state, to: result.state,
          context: "seed \(seed) (NAVD_TEST_SEED to replay) sequence \(sequence) step \(step) ops \(ops)")
        observe(ops, state, result.state, allMetrics.count)
        state = result.state
      }
    }
    return seed
  }

  /// Moves each of `documents` (one per metrics) from `state` to `next` and expects the
  /// reference: its layout and document those resolved from scratch, its patch the diff
  /// of the two reference documents, which also takes its old document to its new.
  static func expectReferenceUpdate(
    _ documents: inout [LayoutDocument], metrics allMetrics: [LayoutMetrics?], from state: SceneState,
    to next: SceneState, context: String
  ) throws {
    for (index, metrics) in allMetrics.enumerated() {
      let before = documents[index].json
      let patch = documents[index].update(to: next)
      let layout = LayoutResolver.resolve(next, metrics: metrics)
      let reference = layout.json
      let context = "metrics \(String(describing: metrics)): \(context)"
      #expect(documents[index].layout == layout, "layout, \(context)")
      #expect(documents[index].json == reference, "document, \(context)")
      let referencePatch = PatchBuilder.diff(LayoutResolver.resolve(state, metrics: metrics).json, reference)
      #expect(patch == referencePatch, "patch, \(context)")
      #expect(PatchBuilder.diff(before, documents[index].json) == referencePatch, "diff of the documents, \(context)")
      #expect(try PatchApplier.apply(patch, to: before) == reference, "patch applies: \(context)")
    }
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

  /// What `LayoutResolver.onlyTopTitleChanged` answers without copying the
  /// state: the two bars' inputs made whole and compared.
  static func referenceOnlyTopTitleChanged(from old: SceneState, to new: SceneState) -> Bool {
    guard let oldTop = old.navigationBar.topItem, let newTop = new.navigationBar.topItem, oldTop.title != newTop.title
    else { return false }
    var retitled = LayoutResolver.navigationBarInputs(of: old)
    retitled.navigationBar.items[retitled.navigationBar.items.count - 1].title = newTop.title
    return retitled == LayoutResolver.navigationBarInputs(of: new)
      && LayoutResolver.toolbarInputs(of: old) == LayoutResolver.toolbarInputs(of: new)
  }

  @Test("R19–R28 R46 the title fast path is taken exactly when both bars' inputs differ in the top title alone")
  func onlyTopTitleChanged() {
    let seed = SplitMix64.testSeed(default: 0x1A70_0D0C_0002)
    print("LayoutDocumentTests.onlyTopTitleChanged: seed \(seed) (NAVD_TEST_SEED to replay)")
    var generator = LayoutOpGenerator(rng: SplitMix64(seed: seed))
    var state = SceneState.empty
    var retitles = 0
    var others = 0
    for step in 0..<4000 {
      let ops = (0..<(generator.rng.chance(70) ? 1 : 2)).map { _ in generator.op(in: state) }
      guard let result = try? state.applying(ops) else { continue }
      let expected = Self.referenceOnlyTopTitleChanged(from: state, to: result.state)
      let answer = LayoutResolver.onlyTopTitleChanged(
        navigationBarInputs: LayoutResolver.navigationBarInputs(of: state),
        toolbarInputs: LayoutResolver.toolbarInputs(of: state), to: result.state)
      #expect(answer == expected, "seed \(seed) step \(step) ops \(ops)")
      if expected {
        retitles += 1
      } else if state.navigationBar.topItem?.title != result.state.navigationBar.topItem?.title {
        others += 1
      }
      state = result.state
    }
    #expect(retitles > 80, "only \(retitles) title-only changes; seed \(seed)")
    #expect(others > 50, "only \(others) title changes with something else; seed \(seed)")
  }

  @Test("R19–R28 R46 a title change with any other part of the state is not a title-only change")
  func titleWithAnotherChange() {
    let base = SceneState(
      navigationBar: NavigationBarState(items: [
        NavigationItem(id: "deep", title: "Deep"), NavigationItem(id: "back", title: "Back"),
        NavigationItem(id: "top", title: "Top"),
      ]))
    var retitled = base
    retitled.navigationBar.items[2].title = "Pot"
    let changes: [(String, (inout SceneState) -> Void)] = [
      ("back item", { $0.navigationBar.items[1].title = "Front" }),
      ("top item's prompt", { $0.navigationBar.items[2].prompt = "Prompt" }),
      ("top item's id", { $0.navigationBar.items[2].id = "other" }),
      ("top item's title view", { $0.navigationBar.items[2].titleView = CustomView(name: "logo", width: 40) }),
      ("top item's back button item", { $0.navigationBar.items[2].backBarButtonItem = "b" }),
      ("top item's hidesBackButton", { $0.navigationBar.items[2].hidesBackButton = true }),
      ("top item's leftItemsSupplementBackButton", { $0.navigationBar.items[2].leftItemsSupplementBackButton = true }),
      ("top item's left items", { $0.navigationBar.items[2].leftBarButtonItems = ["b"] }),
      ("top item's right items", { $0.navigationBar.items[2].rightBarButtonItems = ["b"] }),
      ("stack depth", { $0.navigationBar.items.removeFirst(2) }),
      ("navigation bar hidden", { $0.navigationBar.hidden = true }),
      ("navigation bar appearance", { $0.navigationBar.appearance.tintColor = Color.black }),
      ("toolbar", { $0.toolbar.hidden = true }),
      ("bar button items", { $0.barButtonItems["b"] = BarButtonItem(id: "b") }),
      ("tint", { $0.tintColor = Color.black }),
      ("appearance defaults", { $0.appearanceDefaults.barButtonItemTintColor = Color.black }),
    ]
    func answer(_ state: SceneState) -> Bool {
      LayoutResolver.onlyTopTitleChanged(
        navigationBarInputs: LayoutResolver.navigationBarInputs(of: base),
        toolbarInputs: LayoutResolver.toolbarInputs(of: base), to: state)
    }
    #expect(answer(retitled))
    var deeper = retitled
    deeper.navigationBar.items[0].title = "Deeper"
    #expect(answer(deeper), "the navigation bar reads no item below the back item")
    for (name, change) in changes {
      var state = retitled
      change(&state)
      #expect(!answer(state), "\(name)")
    }
    // `onlyTopTitleChanged` names each stored property of these two types, and
    // `NavigationItem.equalsIgnoringTitle` each of the item's: one added to them
    // must be added there (and above).
    #expect(
      Mirror(reflecting: base).children.map(\.label) == [
        "navigationBar", "toolbar", "barButtonItems", "tintColor", "appearanceDefaults",
      ])
    #expect(Mirror(reflecting: base.navigationBar).children.map(\.label) == ["items", "hidden", "appearance"])
    #expect(
      Mirror(reflecting: base.navigationBar.items[0]).children.map(\.label) == [
        "id", "title", "prompt", "titleView", "backBarButtonItem", "hidesBackButton", "leftItemsSupplementBackButton",
        "leftBarButtonItems", "rightBarButtonItems",
      ])
  }
}
