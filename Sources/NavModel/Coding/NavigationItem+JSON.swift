extension NavigationItem {
  /// The document form: optional properties are omitted when unset; flags and arrays always present.
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "id": .string(id), "hidesBackButton": .bool(hidesBackButton),
      "leftItemsSupplementBackButton": .bool(leftItemsSupplementBackButton),
      "leftBarButtonItems": .array(leftBarButtonItems.map { .string($0) }),
      "rightBarButtonItems": .array(rightBarButtonItems.map { .string($0) }),
    ]
    if let title { members["title"] = .string(title) }
    if let prompt { members["prompt"] = .string(prompt) }
    if let titleView { members["titleView"] = titleView.json }
    if let backBarButtonItem { members["backBarButtonItem"] = .string(backBarButtonItem) }
    return .object(members)
  }

  /// Writes `json`'s bytes straight into `w` (keys in order, optional properties omitted when unset).
  package func write(to w: inout SortedJSONWriter) {
    w.beginObject()
    w.memberIfSet(#""backBarButtonItem":"#, backBarButtonItem)
    w.member(#""hidesBackButton":"#, hidesBackButton)
    w.member(#""id":"#, id)
    w.key(#""leftBarButtonItems":"#)
    w.strings(leftBarButtonItems)
    w.member(#""leftItemsSupplementBackButton":"#, leftItemsSupplementBackButton)
    w.memberIfSet(#""prompt":"#, prompt)
    w.key(#""rightBarButtonItems":"#)
    w.strings(rightBarButtonItems)
    w.memberIfSet(#""title":"#, title)
    if let titleView {
      w.key(#""titleView":"#)
      titleView.write(to: &w)
    }
    w.endObject()
  }

  static let fieldNames: Set<String> = [
    "id", "title", "prompt", "titleView", "backBarButtonItem", "hidesBackButton", "leftItemsSupplementBackButton",
    "leftBarButtonItems", "rightBarButtonItems",
  ]

  /// Decodes the document form, naming the failing field under `path`.
  public init(json: JSONValue, path: String) throws(NavError) {
    let reader = try FieldReader(json, path: path)
    try reader.rejectUnknown(Self.fieldNames)
    self.init(
      id: try reader.string("id"),
      title: try reader.optionalString("title"),
      prompt: try reader.optionalString("prompt"),
      titleView: try reader.optionalCustomView("titleView"),
      backBarButtonItem: try reader.optionalString("backBarButtonItem"),
      hidesBackButton: try reader.bool("hidesBackButton", default: false),
      leftItemsSupplementBackButton: try reader.bool("leftItemsSupplementBackButton", default: false),
      leftBarButtonItems: try reader.strings("leftBarButtonItems"),
      rightBarButtonItems: try reader.strings("rightBarButtonItems"))
  }
}
