/// Bar button items: the arrays that show them and the items themselves.
extension OpApplier {
  mutating func setBarButtonItems(_ navigationItem: String, side: BarSide, items: [String]) throws(NavError) {
    let index = try stackIndex(navigationItem, field: field("item"))
    try validation.itemArray(items, in: state, field: field("items"))
    let other = state.navigationBar.items[index][side.other]
    if let shared = items.first(where: other.contains) {
      throw Self.onOtherSide(shared, side: side, field: field("items"))
    }
    state.navigationBar.items[index][side] = items
  }

  /// SEMANTICS R5: one item appears at most once across a navigation item's two sides.
  static func onOtherSide(_ item: String, side: BarSide, field: String) -> NavError {
    NavError(
      .duplicateItem,
      "bar button item \"\(item)\" is already on the \(side.other.rawValue) side of this navigation item",
      field: field, value: item)
  }

  /// UIKit's `leftBarButtonItem`/`rightBarButtonItem` setter: the first element of the array.
  mutating func setBarButtonItem(_ navigationItem: String, side: BarSide, item: String?) throws(NavError) {
    let index = try stackIndex(navigationItem, field: field("item"))
    var list = state.navigationBar.items[index][side]
    if let item {
      guard state.barButtonItems.contains(item) else {
        throw NavError(.itemNotFound, "no bar button item \"\(item)\"", field: field("barButtonItem"), value: item)
      }
      if state.navigationBar.items[index][side.other].contains(item) {
        throw Self.onOtherSide(item, side: side, field: field("barButtonItem"))
      }
      if let existing = list.firstIndex(of: item) {
        list.remove(at: existing)
        list.insert(item, at: 0)
      } else if list.isEmpty {
        list = [item]
      } else {
        list[0] = item
      }
    } else if !list.isEmpty {
      list.removeFirst()
    }
    state.navigationBar.items[index][side] = list
  }

  static func insert(
    _ item: String, before: String?, into list: inout [String], state: SceneState, validation: Validation,
    path: String
  ) throws(NavError) {
    guard state.barButtonItems.contains(item) else {
      throw NavError(.itemNotFound, "no bar button item \"\(item)\"", field: "\(path).barButtonItem", value: item)
    }
    guard !list.contains(item) else {
      throw NavError(
        .duplicateItem, "bar button item \"\(item)\" is already in this array", field: "\(path).barButtonItem",
        value: item)
    }
    try validation.count(
      list.count + 1, limit: "itemsPerArray", max: validation.limits.itemsPerArray, field: "\(path).barButtonItem")
    let position = try anchorIndex(before, in: list, path: path)
    list.insert(item, at: position)
  }

  static func remove(_ item: String, from list: inout [String], path: String) throws(NavError) {
    guard let index = list.firstIndex(of: item) else {
      throw NavError(
        .itemNotFound, "bar button item \"\(item)\" is not in this array", field: "\(path).barButtonItem", value: item)
    }
    list.remove(at: index)
  }

  static func move(_ item: String, before: String?, in list: inout [String], path: String) throws(NavError) {
    guard let index = list.firstIndex(of: item) else {
      throw NavError(
        .itemNotFound, "bar button item \"\(item)\" is not in this array", field: "\(path).barButtonItem", value: item)
    }
    _ = try anchorIndex(before, in: list, path: path)
    if before == item { return }
    list.remove(at: index)
    list.insert(item, at: try anchorIndex(before, in: list, path: path))
  }

  /// Where "before `anchor`" is; the end when there is no anchor.
  static func anchorIndex(_ anchor: String?, in list: [String], path: String) throws(NavError) -> Int {
    guard let anchor else { return list.count }
    guard let index = list.firstIndex(of: anchor) else {
      throw NavError(
        .itemNotFound, "anchor \"\(anchor)\" is not in this array", field: "\(path).before", value: anchor)
    }
    return index
  }

  mutating func defineBarButtonItem(_ item: BarButtonItem) throws(NavError) {
    try validation.barButtonItem(item, field: field("barButtonItem"))
    guard !state.barButtonItems.contains(item.id) else {
      throw NavError(
        .duplicateItem, "bar button item \"\(item.id)\" already exists", field: field("barButtonItem.id"),
        value: item.id)
    }
    try validation.count(
      state.barButtonItems.count + 1, limit: "barButtonItemsPerScene", max: limits.barButtonItemsPerScene,
      field: field("barButtonItem"))
    state.barButtonItems[item.id] = item
  }

  mutating func updateBarButtonItem(_ id: String, _ fields: [BarButtonItemField]) throws(NavError) {
    guard let index = state.barButtonItems.index(of: id) else {
      throw NavError(.itemNotFound, "no bar button item \"\(id)\"", field: field("barButtonItem"), value: id)
    }
    var item = state.barButtonItems.item(at: index)
    let setsSystemItem = fields.contains { if case .systemItem(.some) = $0 { true } else { false } }
    let setsTitleOrImage = fields.contains {
      switch $0 {
      case .title(.some), .image(.some), .customView(.some): true
      default: false
      }
    }
    if setsSystemItem && setsTitleOrImage {
      throw NavError(
        .invalidMutation,
        "one update cannot set both systemItem and a title, image or customView on \"\(id)\" (SEMANTICS R41)",
        field: field("set.systemItem"), value: id)
    }
    for change in fields {
      switch change {
      case .systemItem(let systemItem):
        item.systemItem = systemItem
        if systemItem != nil {
          item.title = nil
          item.image = nil
          item.customView = nil
        }
      case .style(let style): item.style = style
      case .title(let title):
        item.title = title
        if title != nil { item.systemItem = nil }
      case .image(let image):
        item.image = image
        if image != nil { item.systemItem = nil }
      case .width(let width): item.width = width
      case .possibleTitles(let titles): item.possibleTitles = titles
      case .customView(let view):
        item.customView = view
        if view != nil { item.systemItem = nil }
      case .enabled(let enabled): item.enabled = enabled
      case .tag(let tag): item.tag = tag
      case .tintColor(let color): item.tintColor = color
      case .action(let action): item.action = action
      }
    }
    try validation.barButtonItem(item, field: field("set"))
    state.barButtonItems.replace(at: index, with: item)
  }

  /// Deleting an item removes it from every array and back slot that shows it.
  mutating func deleteBarButtonItem(_ id: String) throws(NavError) {
    guard state.barButtonItems.contains(id) else {
      throw NavError(.itemNotFound, "no bar button item \"\(id)\"", field: field("barButtonItem"), value: id)
    }
    state.barButtonItems[id] = nil
    // Each array is changed only where it shows the item: removing from an array shared
    // with the scene before the mutation copied it (and the whole stack, for a side's),
    // whether or not it held the item.
    if state.toolbar.items.contains(id) { state.toolbar.items.removeAll { $0 == id } }
    for index in state.navigationBar.items.indices {
      let shown = state.navigationBar.items[index]
      if shown.leftBarButtonItems.contains(id) {
        state.navigationBar.items[index].leftBarButtonItems.removeAll { $0 == id }
      }
      if shown.rightBarButtonItems.contains(id) {
        state.navigationBar.items[index].rightBarButtonItems.removeAll { $0 == id }
      }
      if shown.backBarButtonItem == id {
        state.navigationBar.items[index].backBarButtonItem = nil
      }
    }
  }
}
