/// The layout document (SEMANTICS R62): what `GetLayout` returns and layout
/// subscribers patch.
///
/// Every field R62 lists is always present, `null` when empty, so a field
/// that changes is one `replace` (R64); only `x`, `width` and `truncated`
/// come and go, with the width. Arrays of shown items are objects with a
/// string `id`, so the patch builder diffs them by identity (R65).
///
/// Each part also has `json(reusing:)`: the same JSON, built from the
/// previous version's value and JSON by re-encoding only what changed
/// (`ObjectWriter`, `LayoutDocument`). A part's JSON is a function of its
/// value alone, which is what makes that reuse exact.
extension Layout {
  /// The layout document.
  public var json: JSONValue { json(reusing: nil) }

  func json(reusing previous: Encoded<Self>?) -> JSONValue {
    var object = ObjectWriter(self, reusing: previous)
    object.set("navigationBar", \.navigationBar) { $0.json(reusing: $1) }
    object.set("toolbar", \.toolbar) { $0.json(reusing: $1) }
    return object.json
  }
}

extension NavigationBarLayout {
  /// The `navigationBar` member of the layout document.
  public var json: JSONValue { json(reusing: nil) }

  func json(reusing previous: Encoded<Self>?) -> JSONValue {
    var object = ObjectWriter(self, reusing: previous)
    object.set("hidden", \.hidden, JSONValue.bool)
    object.set("topItem", \.topItem) { $0.map(JSONValue.string) ?? .null }
    object.set("prompt", \.prompt) { $0.map(JSONValue.string) ?? .null }
    object.set("backButton", \.backButton) { backButton, previous in
      backButton.map { $0.json(reusing: previous?.unwrapped()) } ?? .null
    }
    object.set("left", \.left) { $0.json(reusing: $1) { $0.json(reusing: $1) } }
    object.set("centre", \.centre) { centre, previous in centre.map { $0.json(reusing: previous?.unwrapped()) } ?? .null
    }
    object.set("right", \.right) { $0.json(reusing: $1) { $0.json(reusing: $1) } }
    object.set("overflow", \.overflow) { $0.json(reusing: $1) { $0.json(reusing: $1) } }
    object.set("appearance", \.appearance) { $0.json(reusing: $1) }
    return object.json
  }
}

extension ToolbarLayout {
  /// The `toolbar` member of the layout document.
  public var json: JSONValue { json(reusing: nil) }

  func json(reusing previous: Encoded<Self>?) -> JSONValue {
    var object = ObjectWriter(self, reusing: previous)
    object.set("hidden", \.hidden, JSONValue.bool)
    object.set("items", \.items) { $0.json(reusing: $1) { $0.json(reusing: $1) } }
    object.set("overflow", \.overflow) { $0.json(reusing: $1) { $0.json(reusing: $1) } }
    object.set("appearance", \.appearance) { $0.json(reusing: $1) }
    return object.json
  }
}

extension BackButtonLayout {
  /// R62 `backButton`.
  public var json: JSONValue { json(reusing: nil) }

  func json(reusing previous: Encoded<Self>?) -> JSONValue {
    var object = ObjectWriter(self, reusing: previous)
    object.set("sourceItem", \.sourceItem, JSONValue.string)
    object.set("item", \.item) { $0.map(JSONValue.string) ?? .null }
    object.set("title", \.title) { $0.map(JSONValue.string) ?? .null }
    object.set("image", \.image) { $0?.layoutJSON ?? .null }
    object.set("enabled", \.enabled, JSONValue.bool)
    object.set("tint", \.tint) { .string($0.hex) }
    object.setExtent(\.extent)
    return object.json
  }
}

extension CentreLayout {
  /// R62 `centre`.
  public var json: JSONValue { json(reusing: nil) }

  func json(reusing previous: Encoded<Self>?) -> JSONValue {
    var object = ObjectWriter(self, reusing: previous)
    object.set("kind", \.kind) { .string($0.rawValue) }
    object.set("title", \.title) { $0.map(JSONValue.string) ?? .null }
    object.set("titleView", \.titleView) { $0?.json ?? .null }
    object.setExtent(\.extent)
    object.setIfPresent("truncated", \.truncated, JSONValue.bool)
    return object.json
  }
}

extension LayoutItem {
  /// R62 `Item`.
  public var json: JSONValue { json(reusing: nil) }

  func json(reusing previous: Encoded<Self>?) -> JSONValue {
    var object = ObjectWriter(self, reusing: previous)
    Self.writeMembers(into: &object) { $0 }
    return object.json
  }

  /// R62 `Item`'s members, of the item `item` picks out of the value written.
  static func writeMembers<Value>(into object: inout ObjectWriter<Value>, _ item: (Value) -> LayoutItem) {
    object.set("id", { item($0).id }, JSONValue.string)
    object.set("kind", { item($0).kind }) { .string($0.rawValue) }
    object.set("title", { item($0).title }) { $0.map(JSONValue.string) ?? .null }
    object.set("image", { item($0).image }) { $0?.layoutJSON ?? .null }
    object.set("systemItem", { item($0).systemItem }) { $0.map { .string($0.rawValue) } ?? .null }
    object.set("style", { item($0).style }) { .string($0.rawValue) }
    object.set("customView", { item($0).customView }) { $0?.json ?? .null }
    object.set("enabled", { item($0).enabled }, JSONValue.bool)
    object.set("tint", { item($0).tint }) { .string($0.hex) }
    object.setExtent { item($0).extent }
  }
}

extension OverflowedItem {
  /// R62 overflow entry: the item without geometry, plus its `side`.
  public var json: JSONValue { json(reusing: nil) }

  func json(reusing previous: Encoded<Self>?) -> JSONValue {
    var object = ObjectWriter(self, reusing: previous)
    LayoutItem.writeMembers(into: &object) { $0.item }
    object.set("side", \.side) { .string($0.rawValue) }
    return object.json
  }
}

extension ResolvedAppearance {
  /// R62 `Appearance`.
  public var json: JSONValue { json(reusing: nil) }

  func json(reusing previous: Encoded<Self>?) -> JSONValue {
    var object = ObjectWriter(self, reusing: previous)
    object.set("barStyle", \.barStyle) { .string($0.rawValue) }
    object.set("translucent", \.translucent, JSONValue.bool)
    object.set("backgroundColor", \.backgroundColor) { $0.map { .string($0.hex) } ?? .null }
    object.set("backgroundImage", \.backgroundImage) { $0?.json ?? .null }
    object.set("shadowImage", \.shadowImage) { $0?.layoutJSON ?? .null }
    object.set("tint", \.tint) { .string($0.hex) }
    object.set("titleTextAttributes", \.titleTextAttributes) { attributes in
      attributes.map { attributes in
        [
          "font": attributes.font.map(JSONValue.string) ?? .null,
          "size": attributes.size.map(JSONValue.number) ?? .null,
          "color": attributes.color.map { .string($0.hex) } ?? .null,
        ]
      } ?? .null
    }
    return object.json
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
  mutating func setExtent(_ read: (Value) -> Extent?) {
    setIfPresent("x", { read($0)?.x }, JSONValue.number)
    setIfPresent("width", { read($0)?.width }, JSONValue.number)
  }
}

extension Encoded {
  /// This optional part as its wrapped value, when it has one.
  func unwrapped<Wrapped>() -> Encoded<Wrapped>? where Value == Wrapped? {
    value.map { Encoded<Wrapped>(value: $0, json: json) }
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
