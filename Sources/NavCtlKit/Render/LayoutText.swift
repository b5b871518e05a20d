import NavModel

/// The readable text form of a layout document (`navctl layout`), one element per line.
public enum LayoutText {
  /// The layout as indented text: each bar's top item, prompt, back button, left items,
  /// centre, right items (on-screen order), overflow and resolved appearance, with `x`
  /// and `width` when the layout has geometry.
  public static func describe(_ layout: Layout, version: Int? = nil) -> String {
    var out = version.map { "Layout at version \($0)\n" } ?? ""
    let bar = layout.navigationBar
    let barTint = bar.appearance.tint.hex
    out += "Navigation bar" + (bar.hidden ? " (hidden)" : "") + "\n"
    out += field("top item", bar.topItem ?? "none (empty stack)")
    if let prompt = bar.prompt { out += field("prompt", quoted(prompt)) }
    if let back = bar.backButton {
      var text = back.image.map { "image \($0.name)" } ?? back.title.map(quoted) ?? "no title"
      text += ", back to \(back.sourceItem)"
      if let item = back.item { text += ", from item \(item)" }
      if !back.enabled { text += ", disabled" }
      out += field("back button", text + geometry(back.extent))
    } else {
      out += field("back button", "none")
    }
    out += list("left", bar.left.map { ($0, nil) }, barTint: barTint)
    if let centre = bar.centre {
      var text: String
      if centre.kind == .titleView {
        let view = centre.titleView
        text = "title view \(view?.name ?? "?") (\(number(view?.width))×\(number(view?.height)))"
      } else {
        text = centre.title.map(quoted) ?? "no title"
      }
      if centre.truncated == true { text += ", truncated" }
      out += field("centre", text + geometry(centre.extent))
    } else {
      out += field("centre", "none")
    }
    out += list("right (on screen, left to right)", bar.right.map { ($0, nil) }, barTint: barTint)
    out += list("overflow", bar.overflow.map { ($0.item, $0.side) }, barTint: barTint)
    out += field("appearance", appearance(bar.appearance))
    let toolbar = layout.toolbar
    let toolbarTint = toolbar.appearance.tint.hex
    out += "Toolbar" + (toolbar.hidden ? " (hidden)" : "") + "\n"
    out += list("items", toolbar.items.map { ($0, nil) }, barTint: toolbarTint)
    out += list("overflow", toolbar.overflow.map { ($0, nil) }, barTint: toolbarTint)
    out += field("appearance", appearance(toolbar.appearance))
    return out
  }

  static func field(_ name: String, _ value: String) -> String {
    "  \(name):" + String(repeating: " ", count: max(1, 14 - name.count)) + DisplayWidth.sanitize(value) + "\n"
  }

  /// Items, each with the side of the navigation bar an overflowed one belongs to.
  static func list(_ name: String, _ items: [(item: LayoutItem, side: BarSide?)], barTint: String) -> String {
    guard !items.isEmpty else { return field(name, "none") }
    var out = "  \(name):\n"
    let width = min(items.map(\.item.id.count).max() ?? 0, 24)
    for (item, side) in items {
      out += "    " + item.id + String(repeating: " ", count: max(1, width + 2 - item.id.count))
      out += DisplayWidth.sanitize(describe(item: item, side: side, barTint: barTint)) + "\n"
    }
    return out
  }

  /// One item: what it shows, then what is unusual about it.
  static func describe(item: LayoutItem, side: BarSide?, barTint: String) -> String {
    var parts: [String] = []
    switch item.kind {
    case .title: parts.append(quoted(item.title ?? ""))
    case .system: parts.append("system \(item.systemItem?.rawValue ?? "?")")
    case .image:
      var text = "image \(item.image?.name ?? "?")"
      if let title = item.title { text += " labelled \(quoted(title))" }
      parts.append(text)
    case .customView:
      let view = item.customView
      parts.append("view \(view?.name ?? "?") (\(number(view?.width))×\(number(view?.height)))")
    case .flexibleSpace: parts.append("flexible space")
    case .fixedSpace: parts.append("fixed space")
    case .custom: parts.append("empty button")
    }
    if item.style != .plain { parts.append(item.style.rawValue) }
    if !item.enabled { parts.append("disabled") }
    if item.tint.hex != barTint { parts.append("tint \(item.tint.hex)") }
    if let side { parts.append("\(side.rawValue) side") }
    return parts.joined(separator: ", ") + geometry(item.extent)
  }

  static func appearance(_ appearance: ResolvedAppearance) -> String {
    var parts = ["style \(appearance.barStyle.rawValue)"]
    parts.append(appearance.translucent ? "translucent" : "opaque")
    if let color = appearance.backgroundColor { parts.append("background \(color.hex)") }
    if let image = appearance.backgroundImage {
      parts.append(
        "background image \(image.image.name) (\(image.position.rawValue)/\(image.metrics.rawValue), opacity \(number(image.opacity)))"
      )
    }
    if let shadow = appearance.shadowImage { parts.append("shadow \(shadow.name)") }
    parts.append("tint \(appearance.tint.hex)")
    if let attributes = appearance.titleTextAttributes {
      var text: [String] = []
      if let font = attributes.font { text.append(font) }
      if let size = attributes.size { text.append(number(size)) }
      if let color = attributes.color { text.append(color.hex) }
      parts.append("title \(text.joined(separator: " "))")
    }
    return parts.joined(separator: ", ")
  }

  static func geometry(_ extent: Extent?) -> String {
    guard let extent else { return "" }
    return "  [x \(number(extent.x)), width \(number(extent.width))]"
  }

  static func quoted(_ text: String) -> String { "\"\(text)\"" }

  /// A number as JSON writes it: `8`, `134.5`; `?` for none.
  static func number(_ value: Double?) -> String { number(value.map(JSONValue.number)) }

  /// A JSON number as JSON writes it; `?` for anything else.
  static func number(_ json: JSONValue?) -> String {
    guard let json, case .number = json else { return "?" }
    return JSONWriter.string(json)
  }
}
