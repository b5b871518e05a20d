/// Applies one op to a state it owns. Used only through `SceneState.applying`,
/// which keeps a failed op from leaving a trace.
struct OpApplier {
  var state: SceneState
  let validation: Validation
  /// The index of the op being applied in its request.
  var opIndex = 0
  var events: [SceneEvent] = []

  var limits: ModelLimits { validation.limits }

  /// The op's path in the request, for error fields: `ops[3]`.
  var path: String { "ops[\(opIndex)]" }

  func field(_ name: String) -> String { "\(path).\(name)" }

  mutating func apply(_ op: Op) throws(NavError) {
    switch op {
    case .push(let item, let animated): try push(item, animated: animated)
    case .pop(let expectTop, let animated): try pop(expectTop: expectTop, animated: animated)
    case .popTo(let id, let animated): try popTo(id, animated: animated)
    case .setStack(let items, let animated): try setStack(items, animated: animated)
    case .updateNavigationItem(let id, let fields, _):
      try updateNavigationItem(id, fields)
    case .setBarButtonItems(let navigationItem, let side, let items, _):
      try setBarButtonItems(navigationItem, side: side, items: items)
    case .setBarButtonItem(let navigationItem, let side, let item, _):
      try setBarButtonItem(navigationItem, side: side, item: item)
    case .insertBarButtonItem(let navigationItem, let side, let item, let before):
      let index = try stackIndex(navigationItem, field: field("item"))
      if state.navigationBar.items[index][side.other].contains(item) {
        throw Self.onOtherSide(item, side: side, field: field("barButtonItem"))
      }
      var list = state.navigationBar.items[index][side]
      try Self.insert(item, before: before, into: &list, state: state, validation: validation, path: path)
      state.navigationBar.items[index][side] = list
    case .removeBarButtonItem(let navigationItem, let side, let item):
      let index = try stackIndex(navigationItem, field: field("item"))
      try Self.remove(item, from: &state.navigationBar.items[index][side], path: path)
    case .moveBarButtonItem(let navigationItem, let side, let item, let before):
      let index = try stackIndex(navigationItem, field: field("item"))
      try Self.move(item, before: before, in: &state.navigationBar.items[index][side], path: path)
    case .defineBarButtonItem(let item): try defineBarButtonItem(item)
    case .updateBarButtonItem(let id, let fields): try updateBarButtonItem(id, fields)
    case .deleteBarButtonItem(let id): try deleteBarButtonItem(id)
    case .setToolbarItems(let items, _):
      try validation.itemArray(items, in: state, field: field("items"))
      state.toolbar.items = items
    case .insertToolbarItem(let item, let before):
      try Self.insert(
        item, before: before, into: &state.toolbar.items, state: state, validation: validation, path: path)
    case .removeToolbarItem(let item):
      try Self.remove(item, from: &state.toolbar.items, path: path)
    case .moveToolbarItem(let item, let before):
      try Self.move(item, before: before, in: &state.toolbar.items, path: path)
    case .setBarHidden(let bar, let hidden, _):
      switch bar {
      case .navigationBar: state.navigationBar.hidden = hidden
      case .toolbar: state.toolbar.hidden = hidden
      }
    case .updateAppearance(let target, let fields): try updateAppearance(target, fields)
    case .setSceneTint(let color): state.tintColor = color
    case .setDefaultItemTint(let color): state.appearanceDefaults.barButtonItemTintColor = color
    }
  }

  // MARK: - The stack

  mutating func push(_ item: NavigationItem, animated: Bool) throws(NavError) {
    try validation.navigationItem(item, in: state, field: field("item"))
    if state.navigationBar.items.contains(where: { $0.id == item.id }) {
      throw NavError(
        .itemAlreadyOnStack, "navigation item \"\(item.id)\" is already on the stack", field: field("item.id"),
        value: item.id)
    }
    try validation.count(
      state.navigationBar.items.count + 1, limit: "stackDepth", max: limits.stackDepth, field: field("item"))
    state.navigationBar.items.append(item)
    events.append(.push(item: item.id, animated: animated))
  }

  mutating func pop(expectTop: String?, animated: Bool) throws(NavError) {
    let items = state.navigationBar.items
    if let expectTop, items.last?.id != expectTop {
      let top = items.last.map { "\"\($0.id)\"" } ?? "nothing (the stack is empty)"
      throw NavError(
        .conflict, "pop expected \"\(expectTop)\" on top, but the top is \(top); nothing was popped",
        field: field("expectTop"), value: expectTop)
    }
    guard items.count >= 2 else {
      throw NavError(
        .cannotPopRoot,
        items.isEmpty ? "the stack is empty" : "cannot pop the root item \"\(items[0].id)\"; use setStack to clear",
        field: field("op"))
    }
    let popped = state.navigationBar.items.removeLast()
    events.append(.pop(items: [popped.id], animated: animated))
  }

  mutating func popTo(_ id: String, animated: Bool) throws(NavError) {
    let index = try stackIndex(id, field: field("item"))
    let popped = state.navigationBar.items[(index + 1)...].reversed().map(\.id)
    state.navigationBar.items.removeSubrange((index + 1)...)
    if !popped.isEmpty { events.append(.pop(items: popped, animated: animated)) }
  }

  mutating func setStack(_ items: [NavigationItem], animated: Bool) throws(NavError) {
    try validation.count(items.count, limit: "stackDepth", max: limits.stackDepth, field: field("items"))
    var repeats = RepeatCheck(count: items.count)
    for (i, item) in items.enumerated() {
      try validation.navigationItem(item, in: state, field: field("items[\(i)]"))
      guard !repeats.repeats(item.id, earlier: { items[..<i].contains { $0.id == item.id } }) else {
        throw NavError(
          .duplicateItem, "\(field("items")) lists navigation item \"\(item.id)\" twice",
          field: field("items[\(i)].id"),
          value: item.id)
      }
    }
    let transition = StackTransition(from: state.navigationBar.items.map(\.id), to: items.map(\.id))
    state.navigationBar.items = items
    events.append(.setStack(transition: transition, animated: animated))
  }

  /// Always inlined: called from mutating methods, a call would copy the applier (and its
  /// scene state) to pass it as `self`.
  @inline(__always) func stackIndex(_ id: String, field: @autoclosure () -> String) throws(NavError) -> Int {
    guard let index = state.navigationBar.items.firstIndex(where: { $0.id == id }) else {
      throw NavError(.itemNotFound, "no navigation item \"\(id)\" on the stack", field: field(), value: id)
    }
    return index
  }
}
