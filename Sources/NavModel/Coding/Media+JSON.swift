extension ImageRef {
  /// The document form: `name`, `opaque`, and the size when set.
  public var json: JSONValue {
    var members: [String: JSONValue] = ["name": .string(name), "opaque": .bool(opaque)]
    if let width { members["width"] = .number(width) }
    if let height { members["height"] = .number(height) }
    return .object(members)
  }

  /// Writes `json`'s bytes straight into `w`.
  package func write(to w: inout SortedJSONWriter) {
    w.beginObject()
    w.memberIfSet(#""height":"#, height)
    w.member(#""name":"#, name)
    w.member(#""opaque":"#, opaque)
    w.memberIfSet(#""width":"#, width)
    w.endObject()
  }

  /// Decodes the document form, naming the failing field under `path`.
  public init(json: JSONValue, path: String) throws(NavError) {
    let reader = try FieldReader(json, path: path)
    try reader.rejectUnknown(["name", "opaque", "width", "height"])
    self.init(
      name: try reader.string("name"), opaque: try reader.bool("opaque", default: true),
      width: try reader.optionalNumber("width"), height: try reader.optionalNumber("height"))
  }
}

extension CustomView {
  /// The document form: `name`, `width`, `height`.
  public var json: JSONValue {
    ["name": .string(name), "width": .number(width), "height": .number(height)]
  }

  /// Writes `json`'s bytes straight into `w`.
  package func write(to w: inout SortedJSONWriter) {
    w.beginObject()
    w.member(#""height":"#, height)
    w.member(#""name":"#, name)
    w.member(#""width":"#, width)
    w.endObject()
  }

  /// Decodes the document form, naming the failing field under `path`.
  public init(json: JSONValue, path: String) throws(NavError) {
    let reader = try FieldReader(json, path: path)
    try reader.rejectUnknown(["name", "width", "height"])
    self.init(
      name: try reader.string("name"), width: try reader.number("width"),
      height: try reader.optionalNumber("height") ?? 30)
  }
}

extension TitleTextAttributes {
  /// The document form: each attribute when set.
  public var json: JSONValue {
    var members: [String: JSONValue] = [:]
    if let font { members["font"] = .string(font) }
    if let size { members["size"] = .number(size) }
    if let color { members["color"] = .string(color.hex) }
    return .object(members)
  }

  /// Writes `json`'s bytes straight into `w`.
  package func write(to w: inout SortedJSONWriter) {
    w.beginObject()
    w.memberIfSet(#""color":"#, color?.hex)
    w.memberIfSet(#""font":"#, font)
    w.memberIfSet(#""size":"#, size)
    w.endObject()
  }

  /// Decodes the document form, naming the failing field under `path`.
  public init(json: JSONValue, path: String) throws(NavError) {
    let reader = try FieldReader(json, path: path)
    try reader.rejectUnknown(["font", "size", "color"])
    self.init(
      font: try reader.optionalString("font"), size: try reader.optionalNumber("size"),
      color: try reader.optionalColor("color"))
  }
}

extension FieldReader {
  /// An image, nil when absent or null.
  public func optionalImage(_ key: String) throws(NavError) -> ImageRef? {
    guard let value = members[key], !value.isNull else { return nil }
    return try ImageRef(json: value, path: fieldPath(key))
  }

  /// A custom view, nil when absent or null.
  public func optionalCustomView(_ key: String) throws(NavError) -> CustomView? {
    guard let value = members[key], !value.isNull else { return nil }
    return try CustomView(json: value, path: fieldPath(key))
  }
}
