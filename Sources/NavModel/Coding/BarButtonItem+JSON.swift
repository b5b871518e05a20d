extension BarButtonItem {
  /// The document form: optional properties are omitted when unset.
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "id": .string(id), "style": .string(style.rawValue), "enabled": .bool(enabled), "tag": .number(Double(tag)),
      "possibleTitles": .array(possibleTitles.map { .string($0) }),
    ]
    if let systemItem { members["systemItem"] = .string(systemItem.rawValue) }
    if let title { members["title"] = .string(title) }
    if let image { members["image"] = image.json }
    if let width { members["width"] = .number(width) }
    if let customView { members["customView"] = customView.json }
    if let tintColor { members["tintColor"] = .string(tintColor.hex) }
    if let action { members["action"] = .string(action) }
    return .object(members)
  }

  /// Writes `json`'s bytes straight into `w` (keys in order, optional properties omitted when unset).
  package func write(to w: inout SortedJSONWriter) {
    w.beginObject()
    w.memberIfSet(#""action":"#, action)
    if let customView {
      w.key(#""customView":"#)
      customView.write(to: &w)
    }
    w.member(#""enabled":"#, enabled)
    w.member(#""id":"#, id)
    if let image {
      w.key(#""image":"#)
      image.write(to: &w)
    }
    w.key(#""possibleTitles":"#)
    w.strings(possibleTitles)
    w.member(#""style":"#, style.rawValue)
    if let systemItem {
      w.member(#""systemItem":"#, systemItem.rawValue)
    }
    w.member(#""tag":"#, Double(tag))
    w.memberIfSet(#""tintColor":"#, tintColor?.hex)
    w.memberIfSet(#""title":"#, title)
    w.memberIfSet(#""width":"#, width)
    w.endObject()
  }

  static let fieldNames: Set<String> = [
    "id", "systemItem", "style", "title", "image", "width", "possibleTitles", "customView", "enabled", "tag",
    "tintColor", "action",
  ]

  /// Decodes the document form, naming the failing field under `path`.
  public init(json: JSONValue, path: String) throws(NavError) {
    let reader = try FieldReader(json, path: path)
    try reader.rejectUnknown(Self.fieldNames)
    self.init(
      id: try reader.string("id"),
      systemItem: try reader.optionalEnumeration("systemItem", SystemItem.self),
      style: try reader.optionalEnumeration("style", ItemStyle.self) ?? .plain,
      title: try reader.optionalString("title"),
      image: try reader.optionalImage("image"),
      width: try reader.optionalNumber("width"),
      possibleTitles: try reader.strings("possibleTitles"),
      customView: try reader.optionalCustomView("customView"),
      enabled: try reader.bool("enabled", default: true),
      tag: try reader.integer("tag", default: 0),
      tintColor: try reader.optionalColor("tintColor"),
      action: try reader.optionalString("action"))
  }
}
