import NavModel
import NavTestSupport
import Testing

/// Random valid states built through the ops: the resolver never crashes,
/// is deterministic to the byte, and keeps the structural rules (SEMANTICS
/// R23, R27, R35–R38, R47, R58, R62) on every one of them.
@Suite("Layout resolver: randomized")
struct LayoutResolverPropertyTests {
  static let sequences = 200
  static let opsPerSequence = 40

  @Test("R23 R27 R35 R37 R38 R47 R58 R62 resolve never crashes, is deterministic and keeps its invariants")
  func randomStates() throws {
    let seed = SplitMix64.testSeed(default: 0x1A70_0075_EED5)
    var generator = LayoutOpGenerator(rng: SplitMix64(seed: seed))
    var applied = 0
    var seen: Set<String> = []
    for sequence in 0..<Self.sequences {
      var state = SceneState.empty
      var previous = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 375)).json
      for step in 0..<Self.opsPerSequence {
        let ops = (0..<(generator.rng.chance(80) ? 1 : 2)).map { _ in generator.op(in: state) }
        guard let result = try? state.applying(ops) else { continue }
        state = result.state
        applied += 1
        let context = "seed \(seed) (NAVD_TEST_SEED to replay) sequence \(sequence) step \(step) ops \(ops)"
        for metrics in generator.metrics() {
          seen.formUnion(check(state, metrics: metrics, context: context))
        }
        // The layout document is diffable: the patch builder turns one into the next.
        let next = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 375)).json
        #expect(try PatchApplier.apply(PatchBuilder.diff(previous, next), to: previous) == next, "\(context)")
        previous = next
      }
    }
    // Guard against a generator that only produces rejected ops.
    #expect(applied * 5 > Self.sequences * Self.opsPerSequence * 2, "only \(applied) mutations applied; seed \(seed)")
    // ... and against one that never reaches the interesting cases.
    let wanted: Set = [
      "backButton", "leftOverflow", "rightOverflow", "toolbarOverflow", "truncated", "shifted", "titleView",
    ]
    #expect(wanted.isSubset(of: seen), "never reached \(wanted.subtracting(seen).sorted()); seed \(seed)")
  }

  /// Checks one layout; returns the notable cases it showed, for the coverage guard.
  func check(_ state: SceneState, metrics: LayoutMetrics?, context: String) -> Set<String> {
    let layout = LayoutResolver.resolve(state, metrics: metrics)
    let again = LayoutResolver.resolve(state, metrics: metrics)
    #expect(JSONWriter.bytes(layout.json) == JSONWriter.bytes(again.json), "not deterministic: \(context)")
    let bar = layout.navigationBar
    let stack = state.navigationBar.items
    #expect(bar.topItem == stack.last?.id, "\(context)")

    // R23: exactly when there is a back item, the top does not hide it, and left items allow it.
    if let top = stack.last {
      let expectBack =
        stack.count >= 2 && !top.hidesBackButton
        && (top.leftBarButtonItems.isEmpty || top.leftItemsSupplementBackButton)
      #expect((bar.backButton != nil) == expectBack, "\(context)")
      #expect(bar.backButton.map { $0.sourceItem == stack[stack.count - 2].id } ?? true, "\(context)")
    }

    // R27, R37: every non-space item of the top's sides is shown or overflowed, exactly once, in order;
    // a fixed space is shown or dropped.
    let kinds = { (ids: [String]) in
      ids.filter { id in state.barButtonItems[id].map { !LayoutItem.Kind(of: $0).isSpace } ?? false }
    }
    let top = stack.last
    let left = kinds(top?.leftBarButtonItems ?? [])
    let right = kinds(top?.rightBarButtonItems ?? [])
    let overflowLeft = bar.overflow.filter { $0.side == .left }.map(\.id)
    let overflowRight = bar.overflow.filter { $0.side == .right }.map(\.id)
    let shown = { (ids: [String]) in
      ids.filter { id in state.barButtonItems[id].map { !LayoutItem.Kind(of: $0).isSpace } ?? false }
    }
    #expect(shown(bar.leftIDs) + overflowLeft == left, "\(context)")
    #expect(shown(bar.rightIDs.reversed()) + overflowRight == right, "\(context)")
    #expect(
      bar.overflow.map(\.side) == overflowLeft.map { _ in .left } + overflowRight.map { _ in .right }, "\(context)")

    let toolbarIDs = state.toolbar.items
    let toolbar = layout.toolbar
    if let metrics {
      // R35, R47: shown items are placed left to right without overlapping.
      let requested = metrics.width ?? 0
      let width = min(max(requested.isNaN ? 0 : requested, 0), 10_000)
      for row in [bar.left, bar.right, toolbar.items] {
        let extents = row.compactMap(\.extent)
        #expect(extents.count == row.count, "\(context)")
        #expect(extents.allSatisfy { $0.x.isFinite && $0.width >= 0 }, "\(context)")
        #expect(zip(extents, extents.dropFirst()).allSatisfy { $0.end <= $1.x + 1e-9 }, "\(context)")
      }
      if let back = bar.backButton?.extent, let first = bar.left.first?.extent {
        #expect(back.end <= first.x, "\(context)")
      }
      if let lastLeft = bar.left.last?.extent, let firstRight = bar.right.first?.extent {
        #expect(lastLeft.end + WidthModel.spacing <= firstRight.x, "\(context)")
      }
      #expect(toolbar.items.last.map { $0.extent!.end <= width - WidthModel.edgePadding + 1e-9 } ?? true, "\(context)")
      #expect(toolbar.items.map(\.id) == Array(toolbarIDs.prefix(toolbar.items.count)), "\(context)")
      #expect(bar.centre.map { $0.extent != nil && $0.truncated != nil } ?? true, "\(context)")
    } else {
      // R38.
      #expect(bar.overflow.isEmpty && toolbar.overflow.isEmpty, "\(context)")
      #expect(toolbar.items.map(\.id) == toolbarIDs, "\(context)")
      #expect((bar.left + bar.right + toolbar.items).allSatisfy { $0.extent == nil }, "\(context)")
      #expect(bar.backButton?.extent == nil && bar.centre?.extent == nil && bar.centre?.truncated == nil, "\(context)")
    }

    // R58: activatable exactly when shown on a visible bar, not a space, enabled.
    for id in state.barButtonItems.items.map(\.id) {
      let shown =
        (bar.hidden ? [] : bar.left + bar.right) + (toolbar.hidden ? [] : toolbar.items)
      let expected = shown.contains { $0.id == id && !$0.kind.isSpace && $0.enabled }
      #expect(layout.isActivatable(id) == expected, "\(id) \(context)")
    }

    // R62, R65: the shown arrays are identity arrays, ids unique.
    let json = layout.json
    for path in [
      ["navigationBar", "left"], ["navigationBar", "right"], ["navigationBar", "overflow"], ["toolbar", "items"],
      ["toolbar", "overflow"],
    ] {
      let ids = (json[path[0]]?[path[1]]?.arrayValue ?? []).map { $0["id"]?.stringValue }
      #expect(ids.allSatisfy { $0 != nil } && Set(ids).count == ids.count, "\(path) \(context)")
    }

    var notable: Set<String> = []
    if bar.backButton != nil { notable.insert("backButton") }
    if !overflowLeft.isEmpty { notable.insert("leftOverflow") }
    if !overflowRight.isEmpty { notable.insert("rightOverflow") }
    if !toolbar.overflow.isEmpty { notable.insert("toolbarOverflow") }
    if bar.centre?.truncated == true { notable.insert("truncated") }
    if bar.centre?.kind == .titleView { notable.insert("titleView") }
    if let centre = bar.centre, let extent = centre.extent, centre.truncated == false, extent.width > 0,
      let w = metrics?.width ?? nil, extent.x != (w - extent.width) / 2
    {
      notable.insert("shifted")
    }
    return notable
  }
}

/// Random ops over a small id pool, mostly naming ids that exist so most apply.
struct LayoutOpGenerator {
  var rng: SplitMix64

  static let buttonIDs = (0..<10).map { "b\($0)" }
  static let screenIDs = (0..<8).map { "n\($0)" }
  static let titles: [String?] = [
    nil, "", "Inbox", "Draft", "Settings and Privacy", "Détails", "👩‍👩‍👧‍👦 Family", "A much longer title than fits",
  ]
  static let colors: [Color?] = [nil, LayoutScenes.red, LayoutScenes.green, LayoutScenes.grey, Color.black]

  mutating func metrics() -> [LayoutMetrics?] {
    let positions: [BarPosition] = [.top, .topAttached]
    return [
      nil, LayoutMetrics(width: 0), LayoutMetrics(width: 320, compact: true), LayoutMetrics(width: 768),
      LayoutMetrics(width: 10_000),
      LayoutMetrics(
        width: Double(rng.int(0...1200)) / 2, compact: rng.chance(30), navigationBarPosition: rng.pick(positions),
        toolbarPosition: rng.pick([.bottom, .top])),
    ]
  }

  /// A few distinct ids, mostly of defined items so the op applies.
  mutating func someButtons(_ state: SceneState, max: Int = 5, excluding: [String] = []) -> [String] {
    let defined = state.barButtonItems.items.map(\.id)
    var pool = (rng.chance(85) && !defined.isEmpty ? defined : Self.buttonIDs).filter { !excluding.contains($0) }
    rng.shuffle(&pool)
    return Array(pool.prefix(rng.int(0...max)))
  }

  mutating func image() -> ImageRef? {
    rng.chance(50)
      ? nil : ImageRef(name: rng.pick(["wood", "glass"]), opaque: rng.chance(50), width: rng.chance(50) ? 24 : nil)
  }

  mutating func button(_ id: String) -> BarButtonItem {
    var item = BarButtonItem(id: id, enabled: !rng.chance(20))
    switch rng.below(5) {
    case 0: item.systemItem = rng.pick(SystemItem.allCases)
    case 1: item.title = rng.pick(Self.titles)
    case 2: item.image = ImageRef(name: "icon", opaque: rng.chance(50))
    case 3: item.customView = CustomView(name: "view", width: Double(rng.int(0...300)))
    default: break
    }
    if rng.chance(30) { item.width = Double(rng.int(0...400)) / 2 }
    if rng.chance(20) { item.possibleTitles = ["Edit", "Cancel changes"] }
    if rng.chance(20) { item.tintColor = rng.pick(Self.colors) }
    return item
  }

  mutating func screen(_ id: String, in state: SceneState) -> NavigationItem {
    let left = rng.chance(50) ? someButtons(state, max: 3) : []
    return NavigationItem(
      id: id, title: rng.pick(Self.titles), prompt: rng.chance(20) ? rng.pick(["", "Choose"]) : nil,
      titleView: rng.chance(20) ? CustomView(name: "segments", width: Double(rng.int(0...500))) : nil,
      backBarButtonItem: rng.chance(30) ? someButtons(state, max: 1).first : nil, hidesBackButton: rng.chance(20),
      leftItemsSupplementBackButton: rng.chance(40), leftBarButtonItems: left,
      rightBarButtonItems: someButtons(state, max: 4, excluding: left))
  }

  /// A screen id not on the stack, when there is one.
  mutating func freshScreenID(_ state: SceneState) -> String {
    let onStack = Set(state.navigationBar.items.map(\.id))
    let fresh = Self.screenIDs.filter { !onStack.contains($0) }
    return fresh.isEmpty ? rng.pick(Self.screenIDs) : rng.pick(fresh)
  }

  /// `count` ops, each made for the state the ones before it leave and, of up
  /// to four tries, one that applies there, so most batches apply whole.
  mutating func batch(in state: SceneState, count: Int) -> [Op] {
    var state = state
    return (0..<count).map { _ in
      var op = op(in: state)
      for _ in 0..<3 where (try? state.applying([op])) == nil { op = self.op(in: state) }
      if let next = try? state.applying([op]) { state = next.state }
      return op
    }
  }

  mutating func op(in state: SceneState) -> Op {
    let stackIDs = state.navigationBar.items.map(\.id)
    let onStack = stackIDs.isEmpty ? rng.pick(Self.screenIDs) : rng.pick(stackIDs)
    let defined = state.barButtonItems.items.map(\.id)
    let button = defined.isEmpty || rng.chance(25) ? rng.pick(Self.buttonIDs) : rng.pick(defined)
    let side = rng.pick(BarSide.allCases)
    switch rng.below(27) {
    case 0, 1, 2: return .defineBarButtonItem(self.button(button))
    case 3, 4: return .push(screen(freshScreenID(state), in: state), animated: rng.chance(50))
    case 5: return .pop(expectTop: rng.chance(30) ? stackIDs.last : nil, animated: true)
    case 6: return .popTo(onStack, animated: false)
    case 7:
      var ids = Self.screenIDs
      rng.shuffle(&ids)
      return .setStack(ids.prefix(rng.int(0...4)).map { screen($0, in: state) }, animated: true)
    case 22, 23:
      // A title change alone: the engine's most common update, with its own fast path.
      return .updateNavigationItem(onStack, [.title(rng.pick(Self.titles))], animated: false)
    case 8:
      return .updateNavigationItem(
        onStack,
        [
          .title(rng.pick(Self.titles)), .hidesBackButton(rng.chance(30)),
          .leftItemsSupplementBackButton(rng.chance(50)),
          .backBarButtonItem(rng.chance(50) ? button : nil),
          .titleView(rng.chance(30) ? CustomView(name: "v", width: Double(rng.int(0...400))) : nil),
        ].filter { _ in rng.chance(50) }, animated: false)
    case 9:
      return .setBarButtonItems(
        navigationItem: onStack, side: side,
        items: someButtons(
          state, excluding: state.navigationBar.items.first { $0.id == onStack }?[side == .left ? .right : .left] ?? []),
        animated: true)
    case 10:
      return .setBarButtonItem(
        navigationItem: onStack, side: side, item: rng.chance(20) ? nil : button, animated: false)
    case 11: return .insertBarButtonItem(navigationItem: onStack, side: side, item: button, before: nil)
    case 12: return .removeBarButtonItem(navigationItem: onStack, side: side, item: button)
    case 13:
      return .updateBarButtonItem(
        button,
        [
          .enabled(rng.chance(70)), .width(rng.chance(50) ? nil : Double(rng.int(0...200))),
          .tintColor(rng.pick(Self.colors)),
          rng.chance(50) ? .title(rng.pick(Self.titles)) : .systemItem(rng.pick(SystemItem.allCases)),
        ].filter { _ in rng.chance(50) })
    case 14: return .deleteBarButtonItem(button)
    case 15: return .setToolbarItems(someButtons(state, max: 8), animated: false)
    case 16:
      return .insertToolbarItem(button, before: state.toolbar.items.isEmpty ? nil : rng.pick(state.toolbar.items))
    case 17: return .setBarHidden(rng.pick(Bar.allCases), hidden: rng.chance(30), animated: true)
    case 18, 19:
      return .updateAppearance(
        rng.pick(AppearanceTarget.allCases),
        [
          .barStyle(rng.pick([nil, .default, .black])), .tintColor(rng.pick(Self.colors)),
          .barTintColor(rng.pick(Self.colors)), .translucent(rng.pick([nil, true, false])),
          .backgroundImage(image(), position: rng.pick(BarPosition.allCases), metrics: rng.pick(BarMetrics.allCases)),
          .shadowImage(image()),
          .titleTextAttributes(
            rng.chance(50) ? nil : TitleTextAttributes(font: "Inter", size: 17, color: rng.pick(Self.colors))),
        ].filter { _ in rng.chance(40) })
    case 24:
      let array = state.navigationBar.items.first { $0.id == onStack }?[side] ?? []
      return .moveBarButtonItem(
        navigationItem: onStack, side: side, item: array.isEmpty ? button : rng.pick(array),
        before: array.isEmpty || rng.chance(30) ? nil : rng.pick(array))
    case 25:
      return .removeToolbarItem(state.toolbar.items.isEmpty ? button : rng.pick(state.toolbar.items))
    case 26:
      let items = state.toolbar.items
      return .moveToolbarItem(
        items.isEmpty ? button : rng.pick(items), before: items.isEmpty || rng.chance(30) ? nil : rng.pick(items))
    case 20: return .setSceneTint(rng.pick(Self.colors))
    default: return .setDefaultItemTint(rng.pick(Self.colors))
    }
  }
}
