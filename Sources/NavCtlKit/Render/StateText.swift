import NavModel

/// The readable text form of a state document (`navctl get`).
public enum StateText {
  /// The stack (root first, with every field that is set), the toolbar, the bar button
  /// items, tints and appearance.
  public static func describe(_ state: SceneState, version: Int? = nil) -> String {
    var out = version.map { "State at version \($0)\n" } ?? ""
    let bar = state.navigationBar
    out += "Stack (root first)" + (bar.hidden ? ", navigation bar hidden" : "") + ":\n"
    if bar.items.isEmpty { out += "  (empty)\n" }
    for (index, item) in bar.items.enumerated() {
      let marker = index == bar.items.count - 1 ? "top" : index == bar.items.count - 2 ? "back" : ""
      out += "  \(index + 1). \(item.id)" + (item.title.map { "  \"\($0)\"" } ?? "")
      out += marker.isEmpty ? "\n" : "  (\(marker))\n"
      var details: [String] = []
      if let prompt = item.prompt { details.append("prompt \"\(prompt)\"") }
      if let view = item.titleView { details.append("title view \(view.name) (\(n(view.width))×\(n(view.height)))") }
      if !item.leftBarButtonItems.isEmpty { details.append("left \(item.leftBarButtonItems.joined(separator: ", "))") }
      if !item.rightBarButtonItems.isEmpty {
        details.append("right \(item.rightBarButtonItems.joined(separator: ", "))")
      }
      if let back = item.backBarButtonItem { details.append("back button item \(back)") }
      if item.hidesBackButton { details.append("hides back button") }
      if item.leftItemsSupplementBackButton { details.append("left items supplement back button") }
      for detail in details { out += "       \(detail)\n" }
    }
    out += "Toolbar" + (state.toolbar.hidden ? " (hidden)" : "") + ": "
    out += state.toolbar.items.isEmpty ? "no items\n" : state.toolbar.items.joined(separator: ", ") + "\n"
    out += "Bar button items:\n"
    if state.barButtonItems.count == 0 { out += "  (none)\n" }
    let width = min(state.barButtonItems.items.map(\.id.count).max() ?? 0, 24)
    for item in state.barButtonItems.items {
      out += "  \(item.id)" + String(repeating: " ", count: max(1, width + 2 - item.id.count)) + describe(item) + "\n"
    }
    if let tint = state.tintColor { out += "Scene tint: \(tint.hex)\n" }
    if let tint = state.appearanceDefaults.barButtonItemTintColor { out += "Default item tint: \(tint.hex)\n" }
    for (name, appearance) in [
      ("Navigation bar appearance", bar.appearance), ("Toolbar appearance", state.toolbar.appearance),
      ("Default navigation bar appearance", state.appearanceDefaults.navigationBar),
      ("Default toolbar appearance", state.appearanceDefaults.toolbar),
    ] {
      let text = describe(appearance)
      if !text.isEmpty { out += "\(name): \(text)\n" }
    }
    // User text cannot hold newlines (R67); each line is cleaned of anything that steers a terminal.
    return out.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayWidth.sanitize(String($0)) }
      .joined(separator: "\n")
  }

  static func describe(_ item: BarButtonItem) -> String {
    var parts: [String] = []
    if let system = item.systemItem { parts.append("system \(system.rawValue)") }
    if let title = item.title { parts.append("\"\(title)\"") }
    if let image = item.image { parts.append("image \(image.name)") }
    if let view = item.customView { parts.append("view \(view.name) (\(n(view.width))×\(n(view.height)))") }
    if parts.isEmpty { parts.append("empty button") }
    if item.style != .plain { parts.append(item.style.rawValue) }
    if let width = item.width { parts.append("width \(n(width))") }
    if !item.possibleTitles.isEmpty {
      parts.append("possible titles \(item.possibleTitles.map { "\"\($0)\"" }.joined(separator: ", "))")
    }
    if !item.enabled { parts.append("disabled") }
    if item.tag != 0 { parts.append("tag \(item.tag)") }
    if let tint = item.tintColor { parts.append("tint \(tint.hex)") }
    if let action = item.action { parts.append("action \(action)") }
    return parts.joined(separator: ", ")
  }

  static func describe(_ appearance: BarAppearance) -> String {
    var parts: [String] = []
    if let style = appearance.barStyle { parts.append("style \(style.rawValue)") }
    if let tint = appearance.tintColor { parts.append("tint \(tint.hex)") }
    if let tint = appearance.barTintColor { parts.append("bar tint \(tint.hex)") }
    if let translucent = appearance.translucent { parts.append(translucent ? "translucent" : "opaque") }
    for entry in appearance.backgroundImages {
      parts.append(
        "background \(entry.image.name)\(entry.image.opaque ? "" : " (translucent)") for \(entry.position.rawValue)/\(entry.metrics.rawValue)"
      )
    }
    if let shadow = appearance.shadowImage { parts.append("shadow \(shadow.name)") }
    if let attributes = appearance.titleTextAttributes {
      let text = [attributes.font, attributes.size.map(n), attributes.color?.hex].compactMap { $0 }
      parts.append("title \(text.joined(separator: " "))")
    }
    return parts.joined(separator: ", ")
  }

  static func n(_ value: Double) -> String { JSONWriter.string(.number(value)) }
}
