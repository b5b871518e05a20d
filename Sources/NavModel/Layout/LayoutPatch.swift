/// The RFC 6902 patch between two layouts of one document, written from the
/// layout values rather than found by diffing their JSON: exactly
/// `PatchBuilder.diff(old.json, new.json)` (SEMANTICS R63–R65), which stays
/// the reference and which a seeded randomized test holds this to.
///
/// Each object is walked member by member in ascending key order, as R64
/// visits them; an unchanged part costs a comparison, a changed scalar is one
/// `replace` of its encoded value, and only what changed is encoded. Layout
/// arrays are identity arrays (R65: every item has an id, unique within its
/// array): with the same ids in the same order each changed item is diffed in
/// place; otherwise removes, the fewest moves and adds come first, by ids
/// alone, then the survivors that changed. A member's presence never changes
/// within one document (`x`, `width`, `truncated` exist exactly with a width,
/// R62), so no member is ever removed.
struct LayoutPatch {
  private(set) var operations: [PatchOperation] = []
  /// Unescaped tokens of the object being walked: at most four deep (`/navigationBar/left/3/image`).
  private var path: [String]

  private init() {
    path = []
    path.reserveCapacity(4)
  }

  /// The parts of a navigation bar that may differ between two layouts.
  struct NavigationBarParts: OptionSet {
    let rawValue: UInt8
    static let appearance = Self(rawValue: 1 << 0)
    static let backButton = Self(rawValue: 1 << 1)
    static let centre = Self(rawValue: 1 << 2)
    static let hidden = Self(rawValue: 1 << 3)
    /// `left`, `overflow` and `right`.
    static let items = Self(rawValue: 1 << 4)
    /// `prompt` and `topItem`.
    static let prompt = Self(rawValue: 1 << 5)
    static let all = Self(rawValue: 0x3F)
  }

  /// Where a bar's items were set in place (`LayoutDocument`: the geometry stood):
  /// the positions, in each array, of the only items that may differ. With them an
  /// array's patch diffs those items alone instead of comparing the arrays whole.
  struct Positions {
    /// `left` of a navigation bar, `items` of a toolbar.
    var first: [Int] = []
    var overflow: [Int] = []
    /// `right` of a navigation bar.
    var right: [Int] = []
  }

  /// The patch from the navigation bar `old` to `new` (at `/navigationBar`),
  /// then from the toolbar `oldToolbar` to `newToolbar` (at `/toolbar`); a bar
  /// given as nil did not change, nor did the parts of the navigation bar not in `parts`.
  /// `positions` and `toolbarPositions`: where each bar's items were set in place, nil when
  /// its arrays may differ anywhere.
  static func diff(
    navigationBar old: NavigationBarLayout?, _ new: NavigationBarLayout, parts: NavigationBarParts = .all,
    positions: Positions? = nil,
    toolbar oldToolbar: ToolbarLayout?, _ newToolbar: ToolbarLayout, toolbarPositions: Positions? = nil
  ) -> [PatchOperation] {
    var patch = LayoutPatch()
    if let old { patch.member("navigationBar") { $0.bar(old, new, parts: parts, positions: positions) } }
    if let oldToolbar { patch.member("toolbar") { $0.bar(oldToolbar, newToolbar, positions: toolbarPositions) } }
    return patch.operations
  }

  // MARK: - Walking

  private mutating func member(_ key: String, _ body: (inout LayoutPatch) -> Void) {
    path.append(key)
    body(&self)
    path.removeLast()
  }

  /// The pointer to member `key`, in one allocation (`path + [key]` made two).
  private func pointer(_ key: String) -> JSONPointer {
    JSONPointer(tokens: tokens(key))
  }

  private func tokens(_ key: String) -> [String] {
    var tokens: [String] = []
    tokens.reserveCapacity(path.count + 1)
    tokens.append(contentsOf: path)
    tokens.append(key)
    return tokens
  }

  /// Member `key` is `encode(new)`; one `replace` when it was otherwise.
  private mutating func scalar<Value: Equatable>(
    _ key: String, _ old: Value, _ new: Value, _ encode: (Value) -> JSONValue
  ) {
    if old != new { operations.append(.replace(path: pointer(key), value: encode(new))) }
  }

  /// Member `key` is `encode(new)` when present, absent when nil (`x`, `width`, `truncated`).
  private mutating func optional<Value: Equatable>(
    _ key: String, _ old: Value?, _ new: Value?, _ encode: (Value) -> JSONValue
  ) {
    guard old != new else { return }
    switch (old, new) {
    case (_?, let new?): operations.append(.replace(path: pointer(key), value: encode(new)))
    case (nil, let new?): operations.append(.add(path: pointer(key), value: encode(new)))
    case (_?, nil): operations.append(.remove(path: pointer(key)))
    case (nil, nil): break
    }
  }

  /// Member `key` is a small object (`encode`) or `null`: diffed as JSON when
  /// both are objects, which only happens when it changed.
  private mutating func nested<Value: Equatable>(
    _ key: String, _ old: Value?, _ new: Value?, _ encode: (Value) -> JSONValue
  ) {
    guard old != new else { return }
    if let old, let new {
      PatchBuilder.diff(encode(old), encode(new), at: tokens(key), into: &operations)
    } else {
      operations.append(.replace(path: pointer(key), value: new.map(encode) ?? .null))
    }
  }

  /// Member `key` is an object written by `diff`, or `null`.
  private mutating func object<Value: Equatable>(
    _ key: String, _ old: Value?, _ new: Value?, json: (Value) -> JSONValue,
    _ diff: (inout LayoutPatch, Value, Value) -> Void
  ) {
    guard old != new else { return }
    if let old, let new {
      member(key) { diff(&$0, old, new) }
    } else {
      operations.append(.replace(path: pointer(key), value: new.map(json) ?? .null))
    }
  }

  /// Member `key` is an identity array (R65).
  private mutating func array<Element: Equatable & Identifiable>(
    _ key: String, _ old: [Element], _ new: [Element], json: (Element) -> JSONValue,
    _ diff: (inout LayoutPatch, Element, Element) -> Void
  ) where Element.ID == String {
    guard old != new else { return }
    member(key) { patch in
      if old.count == new.count, zip(old, new).allSatisfy({ $0.id == $1.id }) {
        for index in new.indices where old[index] != new[index] {
          patch.member(String(index)) { diff(&$0, old[index], new[index]) }
        }
        return
      }
      // Each id is looked for in the other array: at most a few dozen items (R66).
      let newIndexOfOld = old.map { element in new.firstIndex { $0.id == element.id } }
      let oldIndexOfNew = new.map { element in old.firstIndex { $0.id == element.id } }
      for index in old.indices.reversed() where newIndexOfOld[index] == nil {
        patch.operations.append(.remove(path: patch.pointer(String(index))))
      }
      var targetRank = [Int](repeating: -1, count: new.count)
      var survivors = 0
      for index in new.indices where oldIndexOfNew[index] != nil {
        targetRank[index] = survivors
        survivors += 1
      }
      let ranks = newIndexOfOld.compactMap { $0.map { targetRank[$0] } }
      for move in PatchBuilder.moves(sorting: ranks) {
        patch.operations.append(.move(from: patch.pointer(String(move.from)), path: patch.pointer(String(move.to))))
      }
      for index in new.indices where oldIndexOfNew[index] == nil {
        patch.operations.append(.add(path: patch.pointer(String(index)), value: json(new[index])))
      }
      for index in new.indices {
        guard let was = oldIndexOfNew[index], old[was] != new[index] else { continue }
        patch.member(String(index)) { diff(&$0, old[was], new[index]) }
      }
    }
  }

  /// Member `key` is an identity array whose items differ at most at `positions`
  /// (same ids in the same order): each changed one is diffed in place, in index order.
  private mutating func array<Element: Equatable>(
    _ key: String, _ old: [Element], _ new: [Element], at positions: [Int],
    _ diff: (inout LayoutPatch, Element, Element) -> Void
  ) {
    guard !positions.isEmpty else { return }
    var changed = positions
    if changed.count > 1 { changed.sort() }
    member(key) { patch in
      var previous = -1
      for index in changed where index != previous {
        previous = index
        if old[index] != new[index] { patch.member(String(index)) { diff(&$0, old[index], new[index]) } }
      }
    }
  }

  // MARK: - The layout's objects, members in ascending key order (R64)

  private mutating func bar(
    _ old: NavigationBarLayout, _ new: NavigationBarLayout, parts: NavigationBarParts, positions: Positions?
  ) {
    if parts.contains(.appearance) {
      object("appearance", old.appearance, new.appearance, json: \.json) { $0.appearance($1, $2) }
    }
    if parts.contains(.backButton) {
      object("backButton", old.backButton, new.backButton, json: \.json) { $0.backButton($1, $2) }
    }
    if parts.contains(.centre) { object("centre", old.centre, new.centre, json: \.json) { $0.centre($1, $2) } }
    if parts.contains(.hidden) { scalar("hidden", old.hidden, new.hidden, JSONValue.bool) }
    if parts.contains(.items), let positions {
      array("left", old.left, new.left, at: positions.first) { $0.item($1, $2) }
      array("overflow", old.overflow, new.overflow, at: positions.overflow) { $0.overflowed($1, $2) }
    } else if parts.contains(.items) {
      array("left", old.left, new.left, json: \.json) { $0.item($1, $2) }
      array("overflow", old.overflow, new.overflow, json: \.json) { $0.overflowed($1, $2) }
    }
    if parts.contains(.prompt) { scalar("prompt", old.prompt, new.prompt) { $0.map(JSONValue.string) ?? .null } }
    if parts.contains(.items), let positions {
      array("right", old.right, new.right, at: positions.right) { $0.item($1, $2) }
    } else if parts.contains(.items) {
      array("right", old.right, new.right, json: \.json) { $0.item($1, $2) }
    }
    if parts.contains(.prompt) {
      scalar("topItem", old.topItem, new.topItem) { $0.map(JSONValue.string) ?? .null }
    }
  }

  private mutating func bar(_ old: ToolbarLayout, _ new: ToolbarLayout, positions: Positions?) {
    object("appearance", old.appearance, new.appearance, json: \.json) { $0.appearance($1, $2) }
    scalar("hidden", old.hidden, new.hidden, JSONValue.bool)
    if let positions {
      array("items", old.items, new.items, at: positions.first) { $0.item($1, $2) }
      array("overflow", old.overflow, new.overflow, at: positions.overflow) { $0.item($1, $2) }
    } else {
      array("items", old.items, new.items, json: \.json) { $0.item($1, $2) }
      array("overflow", old.overflow, new.overflow, json: \.json) { $0.item($1, $2) }
    }
  }

  private mutating func backButton(_ old: BackButtonLayout, _ new: BackButtonLayout) {
    scalar("enabled", old.enabled, new.enabled, JSONValue.bool)
    nested("image", old.image, new.image, \.layoutJSON)
    scalar("item", old.item, new.item) { $0.map(JSONValue.string) ?? .null }
    scalar("sourceItem", old.sourceItem, new.sourceItem, JSONValue.string)
    scalar("tint", old.tint, new.tint) { .string($0.hex) }
    scalar("title", old.title, new.title) { $0.map(JSONValue.string) ?? .null }
    extent(old.extent, new.extent)
  }

  private mutating func centre(_ old: CentreLayout, _ new: CentreLayout) {
    scalar("kind", old.kind, new.kind) { .string($0.rawValue) }
    scalar("title", old.title, new.title) { $0.map(JSONValue.string) ?? .null }
    nested("titleView", old.titleView, new.titleView, \.json)
    optional("truncated", old.truncated, new.truncated, JSONValue.bool)
    optional("width", old.extent?.width, new.extent?.width, JSONValue.number)
    optional("x", old.extent?.x, new.extent?.x, JSONValue.number)
  }

  private mutating func item(_ old: LayoutItem, _ new: LayoutItem, side: (old: BarSide, new: BarSide)? = nil) {
    nested("customView", old.customView, new.customView, \.json)
    scalar("enabled", old.enabled, new.enabled, JSONValue.bool)
    scalar("id", old.id, new.id, JSONValue.string)
    nested("image", old.image, new.image, \.layoutJSON)
    scalar("kind", old.kind, new.kind) { .string($0.rawValue) }
    if let side { scalar("side", side.old, side.new) { .string($0.rawValue) } }
    scalar("style", old.style, new.style) { .string($0.rawValue) }
    scalar("systemItem", old.systemItem, new.systemItem) { $0.map { .string($0.rawValue) } ?? .null }
    scalar("tint", old.tint, new.tint) { .string($0.hex) }
    scalar("title", old.title, new.title) { $0.map(JSONValue.string) ?? .null }
    extent(old.extent, new.extent)
  }

  private mutating func overflowed(_ old: OverflowedItem, _ new: OverflowedItem) {
    item(old.item, new.item, side: (old.side, new.side))
  }

  private mutating func appearance(_ old: ResolvedAppearance, _ new: ResolvedAppearance) {
    scalar("backgroundColor", old.backgroundColor, new.backgroundColor) { $0.map { .string($0.hex) } ?? .null }
    nested("backgroundImage", old.backgroundImage, new.backgroundImage, \.json)
    scalar("barStyle", old.barStyle, new.barStyle) { .string($0.rawValue) }
    nested("shadowImage", old.shadowImage, new.shadowImage, \.layoutJSON)
    scalar("tint", old.tint, new.tint) { .string($0.hex) }
    nested("titleTextAttributes", old.titleTextAttributes, new.titleTextAttributes, \.layoutJSON)
    scalar("translucent", old.translucent, new.translucent, JSONValue.bool)
  }

  /// `width` then `x`: their order among the other members of every object that has them.
  private mutating func extent(_ old: Extent?, _ new: Extent?) {
    optional("width", old?.width, new?.width, JSONValue.number)
    optional("x", old?.x, new?.x, JSONValue.number)
  }
}
