/// The layout document (SEMANTICS R62): what `GetLayout` returns and layout
/// subscribers patch.
///
/// Every field R62 lists is always present, `null` when empty, so a field
/// that changes is one `replace` (R64); only `x`, `width` and `truncated`
/// come and go, with the width. Arrays of shown items are objects with a
/// string `id`, so the patch builder diffs them by identity (R65).
///
/// Each part also has `write(reusing:)`: the same JSON, built from the
/// previous version's value and JSON by re-encoding only what changed, with
/// the changes noted for the update's patch (`ObjectWriter`,
/// `LayoutDocument`). A part's JSON is a function of its value alone, which
/// is what makes that reuse exact.
extension Layout {
  /// The layout document.
  public var json: JSONValue { write(reusing: nil).json }

  func write(reusing previous: Encoded<Self>?) -> ObjectWriter {
    let old = previous?.value
    var object = ObjectWriter(reusing: previous?.json)
    object.setObject("navigationBar", navigationBar, was: old.map(\.navigationBar)) { $0.write(reusing: $1) }
    object.setObject("toolbar", toolbar, was: old.map(\.toolbar)) { $0.write(reusing: $1) }
    return object
  }
}

extension NavigationBarLayout {
  /// The `navigationBar` member of the layout document.
  public var json: JSONValue { write(reusing: nil).json }

  func write(reusing previous: Encoded<Self>?) -> ObjectWriter {
    let old = previous?.value
    var object = ObjectWriter(reusing: previous?.json)
    object.set("hidden", hidden, was: old.map(\.hidden), JSONValue.bool)
    object.set("topItem", topItem, was: old.map(\.topItem)) { $0.map(JSONValue.string) ?? .null }
    object.set("prompt", prompt, was: old.map(\.prompt)) { $0.map(JSONValue.string) ?? .null }
    object.setObject("backButton", backButton, was: old.map(\.backButton)) { $0.write(reusing: $1) }
    object.set("left", left, was: old.map(\.left)) { $0.write(reusing: $1).json }
    object.setObject("centre", centre, was: old.map(\.centre)) { $0.write(reusing: $1) }
    object.set("right", right, was: old.map(\.right)) { $0.write(reusing: $1).json }
    object.set("overflow", overflow, was: old.map(\.overflow)) { $0.write(reusing: $1).json }
    object.setObject("appearance", appearance, was: old.map(\.appearance)) { $0.write(reusing: $1) }
    return object
  }
}

extension ToolbarLayout {
  /// The `toolbar` member of the layout document.
  public var json: JSONValue { write(reusing: nil).json }

  func write(reusing previous: Encoded<Self>?) -> ObjectWriter {
    let old = previous?.value
    var object = ObjectWriter(reusing: previous?.json)
    object.set("hidden", hidden, was: old.map(\.hidden), JSONValue.bool)
    object.set("items", items, was: old.map(\.items)) { $0.write(reusing: $1).json }
    object.set("overflow", overflow, was: old.map(\.overflow)) { $0.write(reusing: $1).json }
    object.setObject("appearance", appearance, was: old.map(\.appearance)) { $0.write(reusing: $1) }
    return object
  }
}

extension BackButtonLayout {
  /// R62 `backButton`.
  public var json: JSONValue { write(reusing: nil).json }

  func write(reusing previous: Encoded<Self>?) -> ObjectWriter {
    let old = previous?.value
    var object = ObjectWriter(reusing: previous?.json)
    object.set("sourceItem", sourceItem, was: old.map(\.sourceItem), JSONValue.string)
    object.set("item", item, was: old.map(\.item)) { $0.map(JSONValue.string) ?? .null }
    object.set("title", title, was: old.map(\.title)) { $0.map(JSONValue.string) ?? .null }
    object.set("image", image, was: old.map(\.image)) { $0?.layoutJSON ?? .null }
    object.set("enabled", enabled, was: old.map(\.enabled), JSONValue.bool)
    object.set("tint", tint, was: old.map(\.tint)) { .string($0.hex) }
    object.setExtent(extent, was: old.map(\.extent))
    return object
  }
}

extension CentreLayout {
  /// R62 `centre`.
  public var json: JSONValue { write(reusing: nil).json }

  func write(reusing previous: Encoded<Self>?) -> ObjectWriter {
    let old = previous?.value
    var object = ObjectWriter(reusing: previous?.json)
    object.set("kind", kind, was: old.map(\.kind)) { .string($0.rawValue) }
    object.set("title", title, was: old.map(\.title)) { $0.map(JSONValue.string) ?? .null }
    object.set("titleView", titleView, was: old.map(\.titleView)) { $0?.json ?? .null }
    object.setExtent(extent, was: old.map(\.extent))
    object.setIfPresent("truncated", truncated, was: old.map(\.truncated), JSONValue.bool)
    return object
  }
}

extension LayoutItem {
  /// R62 `Item`.
  public var json: JSONValue { write(reusing: nil).json }

  func write(reusing previous: Encoded<Self>?) -> ObjectWriter {
    let old = previous?.value
    var object = ObjectWriter(reusing: previous?.json)
    writeMembers(into: &object, was: old)
    return object
  }

  /// R62 `Item`'s members; `old` is the item the object was written from, when reusing.
  func writeMembers(into object: inout ObjectWriter, was old: LayoutItem?) {
    object.set("id", id, was: old.map(\.id), JSONValue.string)
    object.set("kind", kind, was: old.map(\.kind)) { .string($0.rawValue) }
    object.set("title", title, was: old.map(\.title)) { $0.map(JSONValue.string) ?? .null }
    object.set("image", image, was: old.map(\.image)) { $0?.layoutJSON ?? .null }
    object.set("systemItem", systemItem, was: old.map(\.systemItem)) { $0.map { .string($0.rawValue) } ?? .null }
    object.set("style", style, was: old.map(\.style)) { .string($0.rawValue) }
    object.set("customView", customView, was: old.map(\.customView)) { $0?.json ?? .null }
    object.set("enabled", enabled, was: old.map(\.enabled), JSONValue.bool)
    object.set("tint", tint, was: old.map(\.tint)) { .string($0.hex) }
    object.setExtent(extent, was: old.map(\.extent))
  }
}

extension OverflowedItem {
  /// R62 overflow entry: the item without geometry, plus its `side`.
  public var json: JSONValue { write(reusing: nil).json }

  func write(reusing previous: Encoded<Self>?) -> ObjectWriter {
    let old = previous?.value
    var object = ObjectWriter(reusing: previous?.json)
    item.writeMembers(into: &object, was: old?.item)
    object.set("side", side, was: old.map(\.side)) { .string($0.rawValue) }
    return object
  }
}

extension ResolvedAppearance {
  /// R62 `Appearance`.
  public var json: JSONValue { write(reusing: nil).json }

  func write(reusing previous: Encoded<Self>?) -> ObjectWriter {
    let old = previous?.value
    var object = ObjectWriter(reusing: previous?.json)
    object.set("barStyle", barStyle, was: old.map(\.barStyle)) { .string($0.rawValue) }
    object.set("translucent", translucent, was: old.map(\.translucent), JSONValue.bool)
    object.set("backgroundColor", backgroundColor, was: old.map(\.backgroundColor)) {
      $0.map { .string($0.hex) } ?? .null
    }
    object.set("backgroundImage", backgroundImage, was: old.map(\.backgroundImage)) { $0?.json ?? .null }
    object.set("shadowImage", shadowImage, was: old.map(\.shadowImage)) { $0?.layoutJSON ?? .null }
    object.set("tint", tint, was: old.map(\.tint)) { .string($0.hex) }
    object.set("titleTextAttributes", titleTextAttributes, was: old.map(\.titleTextAttributes)) { attributes in
      attributes.map { attributes in
        [
          "font": attributes.font.map(JSONValue.string) ?? .null,
          "size": attributes.size.map(JSONValue.number) ?? .null,
          "color": attributes.color.map { .string($0.hex) } ?? .null,
        ]
      } ?? .null
    }
    return object
  }
}

extension ResolvedBackgroundImage {
  /// R62 `Appearance.backgroundImage`: the image, the entry it was found under, its opacity.
  var json: JSONValue {
    guard case .object(var members) = image.layoutJSON else { return image.layoutJSON }
    members["position"] = .string(position.rawValue)
    members["metrics"] = .string(metrics.rawValue)
    members["opacity"] = .number(opacity)
    return .object(members)
  }
}

extension ObjectWriter {
  /// `x` and `width`, present exactly with a width (R62).
  mutating func setExtent(_ extent: Extent?, was old: Extent??) {
    setIfPresent("x", extent?.x, was: old.map { $0?.x }, JSONValue.number)
    setIfPresent("width", extent?.width, was: old.map { $0?.width }, JSONValue.number)
  }
}

extension ImageRef {
  /// R62 `ImageRef`: unlike the state document, `width` and `height` are
  /// always present (`null` when unset).
  var layoutJSON: JSONValue {
    [
      "name": .string(name), "opaque": .bool(opaque), "width": width.map(JSONValue.number) ?? .null,
      "height": height.map(JSONValue.number) ?? .null,
    ]
  }
}
