/// Ops read straight from a `JSONDocument`, for the ops a client sends most (a title
/// change is `updateNavigationItem`; `push`, `pop`, `popTo`, `setStack` move through
/// screens; `updateBarButtonItem` retitles, enables and disables items; the side arrays',
/// the toolbar's and the bars' ops): no dictionary is built or hashed for them.
/// Fast path: the reference's dictionaries cost more than 1 % of a round trip (BENCHMARKS.md, "Fast paths").
///
/// The typed readers take only the shapes they know to be valid and leave everything
/// else — a shape they do not read, any mistake — to `Op(json:path:)`, the reference,
/// so errors are the reference's by construction; a seeded randomized test
/// (`JSONDocumentTests`, and `TypedCallDecodingTests` for whole calls) checks that both
/// read the same ops or fail with the same error.
extension Op {
  /// Reads a list of ops (`ops` of a Mutate call) as `list(json:path:)` does.
  public static func list(in document: JSONDocument, at array: JSONDocument.Index, path: String = "ops")
    throws(NavError) -> [Op]
  {
    guard document.kind(array) == .array else { return try list(json: document.value(array), path: path) }
    var ops: [Op] = []
    ops.reserveCapacity(document.count(array))
    for (i, element) in document.elements(array).enumerated() {
      if appendTyped(document, element, to: &ops) { continue }
      do {
        ops.append(try Op(json: document.value(element), path: "\(path)[\(i)]"))
      } catch {
        var error = error
        error.opIndex = i
        throw error
      }
    }
    return ops
  }

  /// The op at `index` when it is one the typed readers know and valid; nil otherwise: the
  /// typed path on its own, as the tests hold it to `Op(json:path:)`.
  static func typed(_ document: JSONDocument, _ index: JSONDocument.Index) -> Op? {
    var ops: [Op] = []
    return appendTyped(document, index, to: &ops) ? ops[0] : nil
  }

  /// Appends the op at `index` to `ops` when it is one the typed readers know and valid;
  /// false (and nothing appended) otherwise.
  ///
  /// The readers append the op they build rather than return it: an `Op` is 192 bytes,
  /// and handing an `Op?` up from reader to caller to the list copied it seven times.
  static func appendTyped(_ document: JSONDocument, _ index: JSONDocument.Index, to ops: inout [Op]) -> Bool {
    guard let name = document.member("op", of: index) else { return false }
    let reader = OpDocumentReader(document: document, object: index)
    if document.string(name, is: "updateNavigationItem") { return reader.updateNavigationItem(to: &ops) }
    if document.string(name, is: "pop") { return reader.pop(to: &ops) }
    if document.string(name, is: "popTo") { return reader.popTo(to: &ops) }
    if document.string(name, is: "push") { return reader.push(to: &ops) }
    if document.string(name, is: "setStack") { return reader.setStack(to: &ops) }
    if document.string(name, is: "updateBarButtonItem") { return reader.updateBarButtonItem(to: &ops) }
    if let kind = document.key(name, in: OpDocumentReader.sideArrayOpNames) {
      return reader.sideArrayOp(kind, to: &ops)
    }
    if let kind = document.key(name, in: OpDocumentReader.toolbarOpNames) { return reader.toolbarOp(kind, to: &ops) }
    return false
  }
}

/// Reads one op object's members for the typed readers; every method returns false (or
/// nil) as soon as something is not exactly what `Op(json:path:)` would accept, and an op
/// method appends its op only once all of it was read.
private struct OpDocumentReader {
  let document: JSONDocument
  let object: JSONDocument.Index

  /// A string member; absent, `null` or another type is nil.
  func string(_ value: JSONDocument.Index) -> String? { document.string(value) }

  /// An optional string (`null` reads as nil): `.some(nil)` for null, nil for any non-string.
  func optionalString(_ value: JSONDocument.Index) -> String?? {
    document.isNull(value) ? .some(nil) : document.string(value).map { .some($0) }
  }

  /// A bool that defaults to false when `null`; nil for any other type.
  func flag(_ value: JSONDocument.Index) -> Bool? {
    document.isNull(value) ? false : document.bool(value)
  }

  /// `updateNavigationItem(item, set, animated?)`.
  func updateNavigationItem(to ops: inout [Op]) -> Bool {
    var item: String?
    var set: JSONDocument.Index?
    var animated = false
    for (key, value) in document.members(object) {
      switch document.key(key, in: ["op", "item", "set", "animated"]) {
      case 0: continue
      case 1: item = string(value)
      case 2: set = document.kind(value) == .object ? value : nil
      case 3:
        guard let flag = flag(value) else { return false }
        animated = flag
      default: return false
      }
    }
    guard let item, let set, let fields = navigationItemFields(set) else { return false }
    ops.append(.updateNavigationItem(item, fields, animated: animated))
    return true
  }

  /// The names `navigationItemFields` reads, sorted as the reference reads them
  /// (`titleView`, a custom view, is left to the reference).
  static let navigationItemFieldNames: [StaticString] = [
    "backBarButtonItem", "hidesBackButton", "leftItemsSupplementBackButton", "prompt", "title",
  ]

  /// The fields of `set`, each read by `field` from its name's position in `names` (five,
  /// sorted as the reference reads them) and its value, in that order: the reference's order
  /// without sorting (and without an array: keys are never repeated). Nil when a member's
  /// name is not one of `names` or `field` does not read its value.
  func fields<Field>(
    of set: JSONDocument.Index, named names: [StaticString], _ field: (Int, JSONDocument.Index) -> Field?
  ) -> [Field]? {
    var values = InlineArray<5, JSONDocument.Index>(repeating: -1)
    for (key, value) in document.members(set) {
      guard let name = document.key(key, in: names) else { return nil }
      values[name] = value
    }
    var fields: [Field] = []
    fields.reserveCapacity(document.count(set))
    for name in values.indices where values[name] >= 0 {
      guard let next = field(name, values[name]) else { return nil }
      fields.append(next)
    }
    return fields
  }

  /// The `set` of an `updateNavigationItem`, fields in the reference's (sorted) order.
  func navigationItemFields(_ set: JSONDocument.Index) -> [NavigationItemField]? {
    fields(of: set, named: Self.navigationItemFieldNames) { name, value in
      switch name {
      case 0: optionalString(value).map(NavigationItemField.backBarButtonItem)
      case 1: document.bool(value).map(NavigationItemField.hidesBackButton)
      case 2: document.bool(value).map(NavigationItemField.leftItemsSupplementBackButton)
      case 3: optionalString(value).map(NavigationItemField.prompt)
      default: optionalString(value).map(NavigationItemField.title)
      }
    }
  }

  /// `updateBarButtonItem(barButtonItem, set)`.
  func updateBarButtonItem(to ops: inout [Op]) -> Bool {
    var item: String?
    var set: JSONDocument.Index?
    for (key, value) in document.members(object) {
      switch document.key(key, in: ["op", "barButtonItem", "set"]) {
      case 0: continue
      case 1: item = string(value)
      case 2: set = document.kind(value) == .object ? value : nil
      default: return false
      }
    }
    guard let item, let set, let fields = barButtonItemFields(set) else { return false }
    ops.append(.updateBarButtonItem(item, fields))
    return true
  }

  /// The names `barButtonItemFields` reads, sorted as the reference reads them (images,
  /// custom views, colors, widths, tags and system items are left to the reference).
  static let barButtonItemFieldNames: [StaticString] = ["action", "enabled", "possibleTitles", "style", "title"]

  /// The `set` of an `updateBarButtonItem`, fields in the reference's (sorted) order.
  func barButtonItemFields(_ set: JSONDocument.Index) -> [BarButtonItemField]? {
    fields(of: set, named: Self.barButtonItemFieldNames) { name, value in
      switch name {
      case 0: optionalString(value).map(BarButtonItemField.action)
      case 1: document.bool(value).map(BarButtonItemField.enabled)
      case 2: strings(value).map(BarButtonItemField.possibleTitles)
      case 3: string(value).flatMap(ItemStyle.init(rawValue:)).map(BarButtonItemField.style)
      default: optionalString(value).map(BarButtonItemField.title)
      }
    }
  }

  /// The op's members by their name's position in `names` (`op` first, at most six in all),
  /// -1 where absent; nil when the op has a member `names` does not list.
  func members(_ names: [StaticString]) -> InlineArray<6, JSONDocument.Index>? {
    var values = InlineArray<6, JSONDocument.Index>(repeating: -1)
    for (key, value) in document.members(object) {
      guard let name = document.key(key, in: names) else { return nil }
      values[name] = value
    }
    return values
  }

  /// A required string member (`FieldReader.string`); nil when absent or not a string.
  func required(_ value: JSONDocument.Index) -> String? { value < 0 ? nil : string(value) }

  /// An optional string member (`FieldReader.optionalString`): `.some(nil)` when absent or null.
  func optional(_ value: JSONDocument.Index) -> String?? { value < 0 ? .some(nil) : optionalString(value) }

  /// `animated` (`FieldReader.bool(_:default: false)`): false when absent or null.
  func animated(_ value: JSONDocument.Index) -> Bool? { value < 0 ? false : flag(value) }

  /// A required bool (`FieldReader.requiredBool`).
  func requiredBool(_ value: JSONDocument.Index) -> Bool? { value < 0 ? nil : document.bool(value) }

  /// A required array of strings (`FieldReader.strings(_:optional: false)`): not null.
  func requiredStrings(_ value: JSONDocument.Index) -> [String]? {
    value < 0 || document.kind(value) != .array ? nil : strings(value)
  }

  /// A navigation item's side (`FieldReader.enumeration`), by its exact raw value.
  func side(_ value: JSONDocument.Index) -> BarSide? { required(value).flatMap(BarSide.init(rawValue:)) }

  /// The side-array ops' names, as `sideArrayOp` takes them.
  static let sideArrayOpNames: [StaticString] = [
    "setBarButtonItems", "setBarButtonItem", "insertBarButtonItem", "removeBarButtonItem", "moveBarButtonItem",
  ]

  /// An op on a navigation item's side array (`sideArrayOpNames[kind]`).
  func sideArrayOp(_ kind: Int, to ops: inout [Op]) -> Bool {
    switch kind {
    case 0:
      guard let m = members(["op", "item", "side", "items", "animated"]), let item = required(m[1]),
        let side = side(m[2]), let items = requiredStrings(m[3]), let animated = animated(m[4])
      else { return false }
      ops.append(.setBarButtonItems(navigationItem: item, side: side, items: items, animated: animated))
    case 1:
      guard let m = members(["op", "item", "side", "barButtonItem", "animated"]), let item = required(m[1]),
        let side = side(m[2]), let barButtonItem = optional(m[3]), let animated = animated(m[4])
      else { return false }
      ops.append(.setBarButtonItem(navigationItem: item, side: side, item: barButtonItem, animated: animated))
    case 3:
      guard let m = members(["op", "item", "side", "barButtonItem"]), let item = required(m[1]),
        let side = side(m[2]), let barButtonItem = required(m[3])
      else { return false }
      ops.append(.removeBarButtonItem(navigationItem: item, side: side, item: barButtonItem))
    default:
      guard let m = members(["op", "item", "side", "barButtonItem", "before"]), let item = required(m[1]),
        let side = side(m[2]), let barButtonItem = required(m[3]), let before = optional(m[4])
      else { return false }
      ops.append(
        kind == 2
          ? .insertBarButtonItem(navigationItem: item, side: side, item: barButtonItem, before: before)
          : .moveBarButtonItem(navigationItem: item, side: side, item: barButtonItem, before: before))
    }
    return true
  }

  /// The toolbar's and the bars' ops' names, as `toolbarOp` takes them.
  static let toolbarOpNames: [StaticString] = [
    "setToolbarItems", "insertToolbarItem", "moveToolbarItem", "removeToolbarItem", "deleteBarButtonItem",
    "setBarHidden",
  ]

  /// An op on the toolbar, an item's definition or a bar's visibility (`toolbarOpNames[kind]`).
  func toolbarOp(_ kind: Int, to ops: inout [Op]) -> Bool {
    switch kind {
    case 0:
      guard let m = members(["op", "items", "animated"]), let items = requiredStrings(m[1]),
        let animated = animated(m[2])
      else { return false }
      ops.append(.setToolbarItems(items, animated: animated))
    case 1, 2:
      guard let m = members(["op", "barButtonItem", "before"]), let item = required(m[1]), let before = optional(m[2])
      else { return false }
      ops.append(kind == 1 ? .insertToolbarItem(item, before: before) : .moveToolbarItem(item, before: before))
    case 3, 4:
      guard let m = members(["op", "barButtonItem"]), let item = required(m[1]) else { return false }
      ops.append(kind == 3 ? .removeToolbarItem(item) : .deleteBarButtonItem(item))
    default:
      guard let m = members(["op", "bar", "hidden", "animated"]),
        let bar = required(m[1]).flatMap(Bar.init(rawValue:)), let hidden = requiredBool(m[2]),
        let animated = animated(m[3])
      else { return false }
      ops.append(.setBarHidden(bar, hidden: hidden, animated: animated))
    }
    return true
  }

  /// `pop(expectTop?, animated?)`.
  func pop(to ops: inout [Op]) -> Bool {
    var expectTop: String?
    var animated = false
    for (key, value) in document.members(object) {
      switch document.key(key, in: ["op", "expectTop", "animated"]) {
      case 0: continue
      case 1:
        guard let text = optionalString(value) else { return false }
        expectTop = text
      case 2:
        guard let flag = flag(value) else { return false }
        animated = flag
      default: return false
      }
    }
    ops.append(.pop(expectTop: expectTop, animated: animated))
    return true
  }

  /// `popTo(item, animated?)`.
  func popTo(to ops: inout [Op]) -> Bool {
    var item: String?
    var animated = false
    for (key, value) in document.members(object) {
      switch document.key(key, in: ["op", "item", "animated"]) {
      case 0: continue
      case 1: item = string(value)
      case 2:
        guard let flag = flag(value) else { return false }
        animated = flag
      default: return false
      }
    }
    guard let item else { return false }
    ops.append(.popTo(item, animated: animated))
    return true
  }
  /// `push(item, animated?)`.
  func push(to ops: inout [Op]) -> Bool {
    var item: NavigationItem?
    var animated = false
    for (key, value) in document.members(object) {
      switch document.key(key, in: ["op", "item", "animated"]) {
      case 0: continue
      case 1: item = navigationItem(value)
      case 2:
        guard let flag = flag(value) else { return false }
        animated = flag
      default: return false
      }
    }
    guard let item else { return false }
    ops.append(.push(item, animated: animated))
    return true
  }

  /// `setStack(items, animated?)`.
  func setStack(to ops: inout [Op]) -> Bool {
    var items: [NavigationItem]?
    var animated = false
    for (key, value) in document.members(object) {
      switch document.key(key, in: ["op", "items", "animated"]) {
      case 0: continue
      case 1:
        guard document.kind(value) == .array else { return false }
        var list: [NavigationItem] = []
        list.reserveCapacity(document.count(value))
        for element in document.elements(value) {
          guard let item = navigationItem(element) else { return false }
          list.append(item)
        }
        items = list
      case 2:
        guard let flag = flag(value) else { return false }
        animated = flag
      default: return false
      }
    }
    guard let items else { return false }
    ops.append(.setStack(items, animated: animated))
    return true
  }

  /// The names `navigationItem` reads (`titleView`, a custom view, is left to the reference).
  static let navigationItemNames: [StaticString] = [
    "id", "title", "prompt", "backBarButtonItem", "hidesBackButton", "leftItemsSupplementBackButton",
    "leftBarButtonItems", "rightBarButtonItems",
  ]

  /// A navigation item's document form, as `NavigationItem(json:path:)` reads it.
  ///
  /// Its fields are locals and the item is made once, at the end: an item made first and
  /// then set field by field was copied into the returned optional and destroyed through
  /// value witnesses.
  func navigationItem(_ index: JSONDocument.Index) -> NavigationItem? {
    guard document.kind(index) == .object else { return nil }
    var id: String?
    var title: String?
    var prompt: String?
    var backBarButtonItem: String?
    var hidesBackButton = false
    var leftItemsSupplementBackButton = false
    var leftBarButtonItems: [String] = []
    var rightBarButtonItems: [String] = []
    for (key, value) in document.members(index) {
      switch document.key(key, in: Self.navigationItemNames) {
      case 0: id = string(value)
      case 1:
        guard let text = optionalString(value) else { return nil }
        title = text
      case 2:
        guard let text = optionalString(value) else { return nil }
        prompt = text
      case 3:
        guard let text = optionalString(value) else { return nil }
        backBarButtonItem = text
      case 4:
        guard let flag = flag(value) else { return nil }
        hidesBackButton = flag
      case 5:
        guard let flag = flag(value) else { return nil }
        leftItemsSupplementBackButton = flag
      case 6:
        guard let ids = strings(value) else { return nil }
        leftBarButtonItems = ids
      case 7:
        guard let ids = strings(value) else { return nil }
        rightBarButtonItems = ids
      default: return nil
      }
    }
    guard let id else { return nil }
    return NavigationItem(
      id: id, title: title, prompt: prompt, backBarButtonItem: backBarButtonItem, hidesBackButton: hidesBackButton,
      leftItemsSupplementBackButton: leftItemsSupplementBackButton, leftBarButtonItems: leftBarButtonItems,
      rightBarButtonItems: rightBarButtonItems)
  }

  /// An array of strings, empty when `null`; nil for anything else.
  func strings(_ value: JSONDocument.Index) -> [String]? {
    if document.isNull(value) { return [] }
    guard document.kind(value) == .array else { return nil }
    var strings: [String] = []
    strings.reserveCapacity(document.count(value))
    for element in document.elements(value) {
      guard let string = document.string(element) else { return nil }
      strings.append(string)
    }
    return strings
  }
}
