import NavModel

/// The readable text form of a layout document (`navctl layout`), one element per line.
public enum LayoutText {
  /// The layout as indented text: each bar's top item, prompt, back button, left items,
  /// centre, right items (on-screen order), overflow and resolved appearance, with `x`
  /// and `width` when the layout has geometry.
  public static func describe(_ layout: JSONValue, version: Int? = nil) -> String {
    var out = version.map { "Layout at version \($0)\n" } ?? ""
    let bar = layout["navigationBar"]
    out += "Navigation bar" + (bar?["hidden"]?.boolValue == true ? " (hidden)" : "") + "\n"
    out += field("top item", bar?["topItem"]?.stringValue ?? "none (empty stack)")
    if let prompt = bar?["prompt"]?.stringValue { out += field("prompt", quoted(prompt)) }
    if let back = bar?["backButton"], case .object = back {
      var text =
        back["image"]?["name"]?.stringValue.map { "image \($0)" } ?? back["title"]?.stringValue.map(quoted)
        ?? "no title"
      text += ", back to \(back["sourceItem"]?.stringValue ?? "?")"
      if let item = back["item"]?.stringValue { text += ", from item \(item)" }
      if back["enabled"]?.boolValue == false { text += ", disabled" }
      out += field("back button", text + geometry(back))
    } else {
      out += field("back button", "none")
    }
    out += list("left", bar?["left"]?.arrayValue ?? [], barTint: bar?["appearance"]?["tint"]?.stringValue)
    if let centre = bar?["centre"], case .object = centre {
      var text: String
      if centre["kind"]?.stringValue == "titleView" {
        let view = centre["titleView"]
        text = "title view \(view?["name"]?.stringValue ?? "?") (\(number(view?["width"]))×\(number(view?["height"])))"
      } else {
        text = centre["title"]?.stringValue.map(quoted) ?? "no title"
      }
      if centre["truncated"]?.boolValue == true { text += ", truncated" }
      out += field("centre", text + geometry(centre))
    } else {
      out += field("centre", "none")
    }
    out += list(
      "right (on screen, left to right)", bar?["right"]?.arrayValue ?? [],
      barTint: bar?["appearance"]?["tint"]?.stringValue)
    out += list("overflow", bar?["overflow"]?.arrayValue ?? [], barTint: bar?["appearance"]?["tint"]?.stringValue)
    out += field("appearance", appearance(bar?["appearance"]))
    let toolbar = layout["toolbar"]
    out += "Toolbar" + (toolbar?["hidden"]?.boolValue == true ? " (hidden)" : "") + "\n"
    out += list("items", toolbar?["items"]?.arrayValue ?? [], barTint: toolbar?["appearance"]?["tint"]?.stringValue)
    out += list(
      "overflow", toolbar?["overflow"]?.arrayValue ?? [], barTint: toolbar?["appearance"]?["tint"]?.stringValue)
    out += field("appearance", appearance(toolbar?["appearance"]))
    return out
  }

  static func field(_ name: String, _ value: String) -> String {
    "  \(name):" + String(repeating: " ", count: max(1, 14 - name.count)) + DisplayWidth.sanitize(value) + "\n"
  }

  static func list(_ name: String, _ items: [JSONValue], barTint: String?) -> String {
    guard !items.isEmpty else { return field(name, "none") }
    var out = "  \(name):\n"
    let width = min(items.map { ($0["id"]?.stringValue ?? "").count }.max() ?? 0, 24)
    for item in items {
      let id = item["id"]?.stringValue ?? "?"
      out += "    " + id + String(repeating: " ", count: max(1, width + 2 - id.count))
      out += DisplayWidth.sanitize(describe(item: item, barTint: barTint)) + "\n"
    }
    return out
  }

  /// One item: what it shows, then what is unusual about it.
  static func describe(item: JSONValue, barTint: String?) -> String {
    var parts: [String] = []
    switch item["kind"]?.stringValue ?? "" {
    case "title": parts.append(quoted(item["title"]?.stringValue ?? ""))
    case "system": parts.append("system \(item["systemItem"]?.stringValue ?? "?")")
    case "image":
      var text = "image \(item["image"]?["name"]?.stringValue ?? "?")"
      if let title = item["title"]?.stringValue { text += " labelled \(quoted(title))" }
      parts.append(text)
    case "customView":
      let view = item["customView"]
      parts.append("view \(view?["name"]?.stringValue ?? "?") (\(number(view?["width"]))×\(number(view?["height"])))")
    case "flexibleSpace": parts.append("flexible space")
    case "fixedSpace": parts.append("fixed space")
    default: parts.append("empty button")
    }
    if let style = item["style"]?.stringValue, style != "plain" { parts.append(style) }
    if item["enabled"]?.boolValue == false { parts.append("disabled") }
    if let tint = item["tint"]?.stringValue, tint != barTint { parts.append("tint \(tint)") }
    if let side = item["side"]?.stringValue { parts.append("\(side) side") }
    return parts.joined(separator: ", ") + geometry(item)
  }

  static func appearance(_ json: JSONValue?) -> String {
    guard let json else { return "?" }
    var parts = ["style \(json["barStyle"]?.stringValue ?? "default")"]
    parts.append(json["translucent"]?.boolValue == false ? "opaque" : "translucent")
    if let color = json["backgroundColor"]?.stringValue { parts.append("background \(color)") }
    if let image = json["backgroundImage"], case .object = image {
      parts.append(
        "background image \(image["name"]?.stringValue ?? "?") (\(image["position"]?.stringValue ?? "?")/\(image["metrics"]?.stringValue ?? "?"), opacity \(number(image["opacity"])))"
      )
    }
    if let shadow = json["shadowImage"]?["name"]?.stringValue { parts.append("shadow \(shadow)") }
    if let tint = json["tint"]?.stringValue { parts.append("tint \(tint)") }
    if let attributes = json["titleTextAttributes"], case .object = attributes {
      var text: [String] = []
      if let font = attributes["font"]?.stringValue { text.append(font) }
      if let size = attributes["size"]?.numberValue { text.append(number(.number(size))) }
      if let color = attributes["color"]?.stringValue { text.append(color) }
      parts.append("title \(text.joined(separator: " "))")
    }
    return parts.joined(separator: ", ")
  }

  static func geometry(_ json: JSONValue) -> String {
    guard let x = json["x"], let width = json["width"] else { return "" }
    return "  [x \(number(x)), width \(number(width))]"
  }

  static func quoted(_ text: String) -> String { "\"\(text)\"" }

  /// A number as JSON writes it: `8`, `134.5`.
  static func number(_ json: JSONValue?) -> String {
    guard let json, case .number = json else { return "?" }
    return JSONWriter.string(json)
  }
}
