/// Ops read straight from a `JSONDocument`, for the ops a client sends most (a title
/// change is `updateNavigationItem`; `push`, `pop`, `popTo`, `setStack` move through
/// screens): no dictionary is built or hashed for them.
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
      if let op = typed(document, element) {
        ops.append(op)
        continue
      }
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

  /// The op at `index` when it is one the typed readers know and valid; nil otherwise.
  static func typed(_ document: JSONDocument, _ index: JSONDocument.Index) -> Op? {
    guard let name = document.member("op", of: index) else { return nil }
    let reader = OpDocumentReader(document: document, object: index)
    if document.string(name, is: "updateNavigationItem") { return reader.updateNavigationItem() }
    if document.string(name, is: "pop") { return reader.pop() }
    if document.string(name, is: "popTo") { return reader.popTo() }
    if document.string(name, is: "push") { return reader.push() }
    if document.string(name, is: "setStack") { return reader.setStack() }
    return nil
  }
}

/// Reads one op object's members for the typed readers; every method returns nil as soon
/// as something is not exactly what `Op(json:path:)` would accept.
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
  func updateNavigationItem() -> Op? {
    var item: String?
    var set: JSONDocument.Index?
    var animated = false
    for (key, value) in document.members(object) {
      switch document.key(key, in: ["op", "item", "set", "animated"]) {
      case 0: continue
      case 1: item = string(value)
      case 2: set = document.kind(value) == .object ? value : nil
      case 3:
        guard let flag = flag(value) else { return nil }
        animated = flag
      default: return nil
      }
    }
    guard let item, let set, let fields = navigationItemFields(set) else { return nil }
    return .updateNavigationItem(item, fields, animated: animated)
  }

  /// The names `navigationItemFields` reads, sorted as the reference reads them
  /// (`titleView`, a custom view, is left to the reference).
  static let navigationItemFieldNames: [StaticString] = [
    "backBarButtonItem", "hidesBackButton", "leftItemsSupplementBackButton", "prompt", "title",
  ]

  /// The `set` of an `updateNavigationItem`, fields in the reference's (sorted) order.
  func navigationItemFields(_ set: JSONDocument.Index) -> [NavigationItemField]? {
    // Each member's value by its name's position; reading the positions in order gives
    // the sorted order without sorting (and without an array: keys are never repeated).
    var values = InlineArray<5, JSONDocument.Index>(repeating: -1)
    for (key, value) in document.members(set) {
      guard let name = document.key(key, in: Self.navigationItemFieldNames) else { return nil }
      values[name] = value
    }
    var fields: [NavigationItemField] = []
    fields.reserveCapacity(document.count(set))
    for name in values.indices where values[name] >= 0 {
      let value = values[name]
      switch name {
      case 0:
        guard let text = optionalString(value) else { return nil }
        fields.append(.backBarButtonItem(text))
      case 1:
        guard let flag = document.bool(value) else { return nil }
        fields.append(.hidesBackButton(flag))
      case 2:
        guard let flag = document.bool(value) else { return nil }
        fields.append(.leftItemsSupplementBackButton(flag))
      case 3:
        guard let text = optionalString(value) else { return nil }
        fields.append(.prompt(text))
      default:
        guard let text = optionalString(value) else { return nil }
        fields.append(.title(text))
      }
    }
    return fields
  }

  /// `pop(expectTop?, animated?)`.
  func pop() -> Op? {
    var expectTop: String?
    var animated = false
    for (key, value) in document.members(object) {
      switch document.key(key, in: ["op", "expectTop", "animated"]) {
      case 0: continue
      case 1:
        guard let text = optionalString(value) else { return nil }
        expectTop = text
      case 2:
        guard let flag = flag(value) else { return nil }
        animated = flag
      default: return nil
      }
    }
    return .pop(expectTop: expectTop, animated: animated)
  }

  /// `popTo(item, animated?)`.
  func popTo() -> Op? {
    var item: String?
    var animated = false
    for (key, value) in document.members(object) {
      switch document.key(key, in: ["op", "item", "animated"]) {
      case 0: continue
      case 1: item = string(value)
      case 2:
        guard let flag = flag(value) else { return nil }
        animated = flag
      default: return nil
      }
    }
    guard let item else { return nil }
    return .popTo(item, animated: animated)
  }
  /// `push(item, animated?)`.
  func push() -> Op? {
    var item: NavigationItem?
    var animated = false
    for (key, value) in document.members(object) {
      switch document.key(key, in: ["op", "item", "animated"]) {
      case 0: continue
      case 1: item = navigationItem(value)
      case 2:
        guard let flag = flag(value) else { return nil }
        animated = flag
      default: return nil
      }
    }
    guard let item else { return nil }
    return .push(item, animated: animated)
  }

  /// `setStack(items, animated?)`.
  func setStack() -> Op? {
    var items: [NavigationItem]?
    var animated = false
    for (key, value) in document.members(object) {
      switch document.key(key, in: ["op", "items", "animated"]) {
      case 0: continue
      case 1:
        guard document.kind(value) == .array else { return nil }
        var list: [NavigationItem] = []
        list.reserveCapacity(document.count(value))
        for element in document.elements(value) {
          guard let item = navigationItem(element) else { return nil }
          list.append(item)
        }
        items = list
      case 2:
        guard let flag = flag(value) else { return nil }
        animated = flag
      default: return nil
      }
    }
    guard let items else { return nil }
    return .setStack(items, animated: animated)
  }

  /// The names `navigationItem` reads (`titleView`, a custom view, is left to the reference).
  static let navigationItemNames: [StaticString] = [
    "id", "title", "prompt", "backBarButtonItem", "hidesBackButton", "leftItemsSupplementBackButton",
    "leftBarButtonItems", "rightBarButtonItems",
  ]

  /// A navigation item's document form, as `NavigationItem(json:path:)` reads it.
  func navigationItem(_ index: JSONDocument.Index) -> NavigationItem? {
    guard document.kind(index) == .object else { return nil }
    var item = NavigationItem(id: "")
    var id: String?
    for (key, value) in document.members(index) {
      switch document.key(key, in: Self.navigationItemNames) {
      case 0: id = string(value)
      case 1:
        guard let text = optionalString(value) else { return nil }
        item.title = text
      case 2:
        guard let text = optionalString(value) else { return nil }
        item.prompt = text
      case 3:
        guard let text = optionalString(value) else { return nil }
        item.backBarButtonItem = text
      case 4:
        guard let flag = flag(value) else { return nil }
        item.hidesBackButton = flag
      case 5:
        guard let flag = flag(value) else { return nil }
        item.leftItemsSupplementBackButton = flag
      case 6:
        guard let ids = strings(value) else { return nil }
        item.leftBarButtonItems = ids
      case 7:
        guard let ids = strings(value) else { return nil }
        item.rightBarButtonItems = ids
      default: return nil
      }
    }
    guard let id else { return nil }
    item.id = id
    return item
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
