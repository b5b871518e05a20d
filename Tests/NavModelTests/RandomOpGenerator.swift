import NavModel
import NavTestSupport

/// Makes random op batches for a state: mostly plausible, some wrong on purpose.
struct OpGenerator {
  var rng: SplitMix64
  /// Indices, in the last batch, of ops holding values JSON cannot carry exactly.
  private(set) var inexact: Set<Int> = []
  private var current = 0

  static let newNavigationIDs = ["root", "a", "b", "c.d", "e_f", "g-h", "9"]
  static let newButtonIDs = ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"]
  static let badIDs = ["", "-x", "a b", "é", Fixtures.text("z", 65)]
  static let texts = ["", "Inbox", "Ünïcödé", "😀 party", "e\u{301}", Fixtures.text("€", 85, tail: "a")]
  static let badTexts = [Fixtures.text("a", 257), "tab\there", "\u{7F}", Fixtures.text("😀", 65)]

  init(rng: SplitMix64) { self.rng = rng }

  mutating func batch(for state: SceneState) -> [Op] {
    inexact = []
    switch rng.below(200) {
    case 0: return []
    case 1: return Array(repeating: .setSceneTint(nil), count: 257)
    default: break
    }
    var ops: [Op] = []
    var state = state
    for index in 0..<(1 + rng.below(5)) {
      current = index
      let op = op(for: state)
      ops.append(op)
      // Later ops are generated against the state so far, so most batches go deeper than one op.
      if let next = try? state.applying(op) { state = next.state }
    }
    return ops
  }

  // MARK: - Ids

  /// An id on the stack most of the time; `fresh` prefers one that is not.
  mutating func navigationID(_ state: SceneState, fresh: Bool = false) -> String {
    let stack = state.navigationBar.items.map(\.id)
    switch rng.below(100) {
    case 0, 1: return rng.pick(Self.badIDs)
    case 2..<(fresh ? 10 : 92) where !stack.isEmpty: return rng.pick(stack)
    default: return rng.pick(Self.newNavigationIDs)
    }
  }

  /// A defined bar button item most of the time.
  mutating func buttonID(_ state: SceneState) -> String {
    let defined = state.barButtonItems.items.map(\.id)
    switch rng.below(100) {
    case 0, 1: return rng.pick(Self.badIDs)
    case 2..<92 where !defined.isEmpty: return rng.pick(defined)
    default: return rng.pick(Self.newButtonIDs)
    }
  }

  mutating func buttonIDs(_ state: SceneState) -> [String] {
    var ids: [String] = []
    for _ in 0..<rng.below(4) {
      let id = buttonID(state)
      if !ids.contains(id) || rng.chance(5) { ids.append(id) }
    }
    if rng.chance(2) { ids = (0..<33).map { _ in buttonID(state) } }
    return ids
  }

  /// A member of `list` most of the time, else any id.
  mutating func member(_ list: [String], _ state: SceneState) -> String {
    !list.isEmpty && rng.chance(92) ? rng.pick(list) : buttonID(state)
  }

  mutating func anchor(_ list: [String], _ state: SceneState) -> String? {
    rng.chance(40) ? nil : member(list, state)
  }

  // MARK: - Values

  mutating func text() -> String { rng.chance(2) ? rng.pick(Self.badTexts) : rng.pick(Self.texts) }

  mutating func optionalText() -> String? { rng.chance(25) ? nil : text() }

  mutating func name() -> String {
    rng.chance(2) ? "" : rng.chance(2) ? rng.pick(Self.badTexts) : rng.pick(["icon", "star.fill", "wood"])
  }

  mutating func length() -> Double {
    switch rng.below(80) {
    case 0: return -1
    case 1: return 10_000.5
    case 2:
      inexact.insert(current)
      return .nan
    case 3: return 10_000
    default: return rng.pick([0, 1, 12.5, 30, 88.25, 320])
    }
  }

  mutating func optionalLength() -> Double? { rng.chance(30) ? nil : length() }

  mutating func color() -> Color {
    Color(
      red: UInt8(rng.below(256)), green: UInt8(rng.below(256)), blue: UInt8(rng.below(256)),
      alpha: rng.chance(50) ? 255 : UInt8(rng.below(256)))
  }

  mutating func optionalColor() -> Color? { rng.chance(30) ? nil : color() }

  mutating func image() -> ImageRef {
    ImageRef(
      name: name(), opaque: rng.chance(50), width: rng.chance(50) ? nil : length(),
      height: rng.chance(70) ? nil : length())
  }

  mutating func optionalImage() -> ImageRef? { rng.chance(30) ? nil : image() }

  mutating func customView() -> CustomView {
    CustomView(name: name(), width: length(), height: rng.chance(50) ? 30 : length())
  }

  mutating func optionalCustomView() -> CustomView? { rng.chance(40) ? nil : customView() }

  mutating func tag() -> Int {
    if rng.chance(3) {
      inexact.insert(current)
      return rng.pick([9_007_199_254_740_993, -9_007_199_254_740_994, Int.max])
    }
    return rng.pick([0, 1, -7, 42, 9_007_199_254_740_992, -9_007_199_254_740_992])
  }

  mutating func possibleTitles() -> [String] {
    rng.chance(3) ? (0..<17).map { "t\($0)" } : (0..<rng.below(4)).map { _ in text() }
  }

  mutating func navigationItem(_ state: SceneState, id: String? = nil) -> NavigationItem {
    // With nothing defined, any reference fails: keep that rare.
    let plain = state.barButtonItems.count == 0 ? 95 : 50
    var left = rng.chance(plain) ? [] : buttonIDs(state)
    var right = rng.chance(plain) ? [] : buttonIDs(state)
    if rng.chance(90) {
      // Keep the sides apart most of the time (R5), so pushes mostly succeed.
      right.removeAll { left.contains($0) }
    } else if let shared = left.first {
      right.append(shared)
    }
    if left.count > 32 && rng.chance(50) { left = Array(left.prefix(3)) }
    return NavigationItem(
      id: id ?? navigationID(state, fresh: true), title: optionalText(), prompt: rng.chance(70) ? nil : text(),
      titleView: rng.chance(80) ? nil : customView(), backBarButtonItem: rng.chance(plain + 20) ? nil : buttonID(state),
      hidesBackButton: rng.chance(20), leftItemsSupplementBackButton: rng.chance(30), leftBarButtonItems: left,
      rightBarButtonItems: right)
  }

  mutating func barButtonItem(_ state: SceneState) -> BarButtonItem {
    let system: SystemItem? = rng.chance(40) ? rng.pick(SystemItem.allCases) : nil
    // A system item with a title, image or custom view is invalid (R41): only sometimes.
    let dressed = system == nil || rng.chance(5)
    return BarButtonItem(
      id: rng.chance(85) ? rng.pick(Self.newButtonIDs + (0..<8).map { "m\($0)" }) : buttonID(state), systemItem: system,
      style: rng.pick(ItemStyle.allCases), title: dressed ? optionalText() : nil,
      image: dressed && rng.chance(30) ? image() : nil, width: rng.chance(60) ? nil : length(),
      possibleTitles: rng.chance(60) ? [] : possibleTitles(),
      customView: dressed && rng.chance(15) ? customView() : nil,
      enabled: rng.chance(80), tag: rng.chance(70) ? 0 : tag(), tintColor: optionalColor(),
      action: rng.chance(50) ? nil : name())
  }

  /// Fields in name order, each at most once: the form the wire decoder produces.
  mutating func navigationItemFields(_ state: SceneState) -> [NavigationItemField] {
    var fields: [NavigationItemField] = []
    if rng.chance(20) { fields.append(.backBarButtonItem(rng.chance(30) ? nil : buttonID(state))) }
    if rng.chance(25) { fields.append(.hidesBackButton(rng.chance(50))) }
    if rng.chance(25) { fields.append(.leftItemsSupplementBackButton(rng.chance(50))) }
    if rng.chance(30) { fields.append(.prompt(optionalText())) }
    if rng.chance(50) { fields.append(.title(optionalText())) }
    if rng.chance(20) { fields.append(.titleView(optionalCustomView())) }
    return fields
  }

  mutating func barButtonItemFields(_ state: SceneState) -> [BarButtonItemField] {
    var fields: [BarButtonItemField] = []
    if rng.chance(15) { fields.append(.action(rng.chance(30) ? nil : name())) }
    if rng.chance(10) { fields.append(.customView(optionalCustomView())) }
    if rng.chance(20) { fields.append(.enabled(rng.chance(50))) }
    if rng.chance(20) { fields.append(.image(optionalImage())) }
    if rng.chance(10) { fields.append(.possibleTitles(possibleTitles())) }
    if rng.chance(15) { fields.append(.style(rng.pick(ItemStyle.allCases))) }
    if rng.chance(25) { fields.append(.systemItem(rng.chance(20) ? nil : rng.pick(SystemItem.allCases))) }
    if rng.chance(10) { fields.append(.tag(tag())) }
    if rng.chance(15) { fields.append(.tintColor(optionalColor())) }
    if rng.chance(30) { fields.append(.title(optionalText())) }
    if rng.chance(15) { fields.append(.width(rng.chance(30) ? nil : length())) }
    return fields
  }

  mutating func appearanceFields() -> [AppearanceField] {
    var fields: [AppearanceField] = []
    for _ in 0..<(rng.chance(60) ? 0 : 1 + rng.below(3)) {
      fields.append(
        .backgroundImage(
          rng.chance(25) ? nil : image(), position: rng.pick(BarPosition.allCases),
          metrics: rng.pick(BarMetrics.allCases)))
    }
    if rng.chance(30) { fields.append(.barStyle(rng.chance(30) ? nil : rng.pick(BarStyle.allCases))) }
    if rng.chance(30) { fields.append(.barTintColor(optionalColor())) }
    if rng.chance(20) { fields.append(.shadowImage(optionalImage())) }
    if rng.chance(30) { fields.append(.tintColor(optionalColor())) }
    if rng.chance(20) {
      fields.append(
        .titleTextAttributes(
          rng.chance(30)
            ? nil
            : TitleTextAttributes(
              font: rng.chance(50) ? nil : name(), size: rng.chance(50) ? nil : length(), color: optionalColor())))
    }
    if rng.chance(30) { fields.append(.translucent(rng.chance(30) ? nil : rng.chance(50))) }
    return fields
  }

  // MARK: - Ops

  mutating func op(for state: SceneState) -> Op {
    let stack = state.navigationBar.items
    let side = rng.pick(BarSide.allCases)
    let target = navigationID(state)
    let list = stack.first { $0.id == target }?[side] ?? []
    let animated = rng.chance(50)
    // Build up scenes that start empty, so most ops find something to work on.
    if stack.isEmpty && rng.chance(50) { return .push(navigationItem(state), animated: animated) }
    if state.barButtonItems.count < 4 && rng.chance(40) { return .defineBarButtonItem(barButtonItem(state)) }
    switch rng.below(22) {
    case 0, 1: return .push(navigationItem(state), animated: animated)
    case 2:
      return .pop(
        expectTop: rng.chance(50) ? nil : rng.chance(70) ? stack.last?.id : navigationID(state), animated: animated)
    case 3: return .popTo(navigationID(state), animated: animated)
    case 4:
      let depth = rng.chance(3) ? 65 : rng.below(5)
      let ids = depth > 5 ? (0..<depth).map { "n\($0)" } : (0..<depth).map { _ in rng.pick(Self.newNavigationIDs) }
      return .setStack(ids.map { navigationItem(state, id: $0) }, animated: animated)
    case 5: return .updateNavigationItem(target, navigationItemFields(state), animated: animated)
    case 6: return .setBarButtonItems(navigationItem: target, side: side, items: buttonIDs(state), animated: animated)
    case 7:
      return .setBarButtonItem(
        navigationItem: target, side: side, item: rng.chance(25) ? nil : buttonID(state), animated: animated)
    case 8:
      return .insertBarButtonItem(
        navigationItem: target, side: side, item: buttonID(state), before: anchor(list, state))
    case 9: return .removeBarButtonItem(navigationItem: target, side: side, item: member(list, state))
    case 10:
      return .moveBarButtonItem(
        navigationItem: target, side: side, item: member(list, state), before: anchor(list, state))
    case 11, 12: return .defineBarButtonItem(barButtonItem(state))
    case 13: return .updateBarButtonItem(buttonID(state), barButtonItemFields(state))
    case 14: return .deleteBarButtonItem(buttonID(state))
    case 15: return .setToolbarItems(buttonIDs(state), animated: animated)
    case 16: return .insertToolbarItem(buttonID(state), before: anchor(state.toolbar.items, state))
    case 17: return .removeToolbarItem(member(state.toolbar.items, state))
    case 18: return .moveToolbarItem(member(state.toolbar.items, state), before: anchor(state.toolbar.items, state))
    case 19: return .setBarHidden(rng.pick(Bar.allCases), hidden: rng.chance(50), animated: animated)
    case 20: return .updateAppearance(rng.pick(AppearanceTarget.allCases), appearanceFields())
    default: return rng.chance(50) ? .setSceneTint(optionalColor()) : .setDefaultItemTint(optionalColor())
    }
  }
}
