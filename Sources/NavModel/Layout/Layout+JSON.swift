/// The layout document (SEMANTICS R62): what `GetLayout` returns and layout
/// subscribers patch.
///
/// Every field R62 lists is always present, `null` when empty, so a field
/// that changes is one `replace` (R64); only `x`, `width` and `truncated`
/// come and go, with the width. Arrays of shown items are objects with a
/// string `id`, so the patch builder diffs them by identity (R65).
///
/// A part's JSON is a function of its value alone, which is what lets
/// `LayoutPatch` write an update's patch from the values.
extension Layout {
  /// The layout document.
  public var json: JSONValue { ["navigationBar": navigationBar.json, "toolbar": toolbar.json] }
}

extension NavigationBarLayout {
  /// The `navigationBar` member of the layout document.
  public var json: JSONValue {
    [
      "hidden": .bool(hidden), "topItem": topItem.map(JSONValue.string) ?? .null,
      "prompt": prompt.map(JSONValue.string) ?? .null, "backButton": backButton?.json ?? .null,
      "left": .array(left.map(\.json)), "centre": centre?.json ?? .null, "right": .array(right.map(\.json)),
      "overflow": .array(overflow.map(\.json)), "appearance": appearance.json,
    ]
  }
}

extension ToolbarLayout {
  /// The `toolbar` member of the layout document.
  public var json: JSONValue {
    [
      "hidden": .bool(hidden), "items": .array(items.map(\.json)), "overflow": .array(overflow.map(\.json)),
      "appearance": appearance.json,
    ]
  }
}

extension BackButtonLayout {
  /// R62 `backButton`.
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "sourceItem": .string(sourceItem), "item": item.map(JSONValue.string) ?? .null,
      "title": title.map(JSONValue.string) ?? .null, "image": image?.layoutJSON ?? .null, "enabled": .bool(enabled),
      "tint": .string(tint.hex),
    ]
    extent?.write(into: &members)
    return .object(members)
  }
}

extension CentreLayout {
  /// R62 `centre`.
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "kind": .string(kind.rawValue), "title": title.map(JSONValue.string) ?? .null,
      "titleView": titleView?.json ?? .null,
    ]
    extent?.write(into: &members)
    if let truncated { members["truncated"] = .bool(truncated) }
    return .object(members)
  }
}

extension LayoutItem {
  /// R62 `Item`.
  public var json: JSONValue { .object(members) }

  /// R62 `Item`'s members.
  var members: [String: JSONValue] {
    var members: [String: JSONValue] = [
      "id": .string(id), "kind": .string(kind.rawValue), "title": title.map(JSONValue.string) ?? .null,
      "image": image?.layoutJSON ?? .null, "systemItem": systemItem.map { .string($0.rawValue) } ?? .null,
      "style": .string(style.rawValue), "customView": customView?.json ?? .null, "enabled": .bool(enabled),
      "tint": .string(tint.hex),
    ]
    extent?.write(into: &members)
    return members
  }
}

extension OverflowedItem {
  /// R62 overflow entry: the item without geometry, plus its `side`.
  public var json: JSONValue {
    var members = item.members
    members["side"] = .string(side.rawValue)
    return .object(members)
  }
}

extension ResolvedAppearance {
  /// R62 `Appearance`.
  public var json: JSONValue {
    [
      "barStyle": .string(barStyle.rawValue), "translucent": .bool(translucent),
      "backgroundColor": backgroundColor.map { .string($0.hex) } ?? .null,
      "backgroundImage": backgroundImage?.json ?? .null, "shadowImage": shadowImage?.layoutJSON ?? .null,
      "tint": .string(tint.hex), "titleTextAttributes": titleTextAttributes?.layoutJSON ?? .null,
    ]
  }
}

extension TitleTextAttributes {
  /// R62 `Appearance.titleTextAttributes`: every member present, `null` when unset.
  var layoutJSON: JSONValue {
    [
      "font": font.map(JSONValue.string) ?? .null, "size": size.map(JSONValue.number) ?? .null,
      "color": color.map { .string($0.hex) } ?? .null,
    ]
  }
}

extension Extent {
  /// `x` and `width`, present exactly with a width (R62).
  func write(into members: inout [String: JSONValue]) {
    members["x"] = .number(x)
    members["width"] = .number(width)
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
