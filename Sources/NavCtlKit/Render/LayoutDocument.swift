import NavModel

/// The parts of a layout document (SEMANTICS R62) the renderer draws, read leniently:
/// a missing or mistyped field reads as empty, so a newer navd's document still draws.
struct LayoutDocument {
  struct Item {
    var id: String
    var kind: String
    var title: String?
    var image: String?
    var systemItem: String?
    var style: String
    var customView: String?
    var customViewWidth: Double?
    var enabled: Bool
    var tint: Color?
    var x: Double?
    var width: Double?
    var side: String?

    init(_ json: JSONValue) {
      id = json["id"]?.stringValue ?? "?"
      kind = json["kind"]?.stringValue ?? "custom"
      title = json["title"]?.stringValue
      image = json["image"]?["name"]?.stringValue
      systemItem = json["systemItem"]?.stringValue
      style = json["style"]?.stringValue ?? "plain"
      customView = json["customView"]?["name"]?.stringValue
      customViewWidth = json["customView"]?["width"]?.numberValue
      enabled = json["enabled"]?.boolValue ?? true
      tint = json["tint"]?.stringValue.flatMap(Color.init(hex:))
      x = json["x"]?.numberValue
      width = json["width"]?.numberValue
      side = json["side"]?.stringValue
    }

    var isSpace: Bool { kind == "flexibleSpace" || kind == "fixedSpace" }

    /// How the item is named in lists: its id, and its title when it has one.
    var listName: String {
      var name = id
      if let title, !title.isEmpty { name += " \"\(title)\"" } else if let systemItem { name += " (\(systemItem))" }
      return name
    }
  }

  struct BackButton {
    var title: String?
    var image: String?
    var enabled: Bool
    var tint: Color?
    var x: Double?
    var width: Double?
  }

  struct Centre {
    var kind: String
    var title: String?
    var titleView: String?
    var titleViewWidth: Double?
    var x: Double?
    var width: Double?
    var truncated: Bool
  }

  struct Appearance {
    var black: Bool
    var background: Color?
    var tint: Color?
    var titleColor: Color?

    init(_ json: JSONValue?) {
      black = json?["barStyle"]?.stringValue == "black"
      background = json?["backgroundColor"]?.stringValue.flatMap(Color.init(hex:))
      tint = json?["tint"]?.stringValue.flatMap(Color.init(hex:))
      titleColor = json?["titleTextAttributes"]?["color"]?.stringValue.flatMap(Color.init(hex:))
    }
  }

  struct NavigationBar {
    var hidden: Bool
    var topItem: String?
    var prompt: String?
    var backButton: BackButton?
    var left: [Item]
    var centre: Centre?
    var right: [Item]
    var overflow: [Item]
    var appearance: Appearance
  }

  struct Toolbar {
    var hidden: Bool
    var items: [Item]
    var overflow: [Item]
    var appearance: Appearance
  }

  var navigationBar: NavigationBar
  var toolbar: Toolbar

  init(_ json: JSONValue) {
    let bar = json["navigationBar"]
    func items(_ value: JSONValue?) -> [Item] { (value?.arrayValue ?? []).map(Item.init) }
    var back: BackButton?
    if let b = bar?["backButton"], case .object = b {
      back = BackButton(
        title: b["title"]?.stringValue, image: b["image"]?["name"]?.stringValue,
        enabled: b["enabled"]?.boolValue ?? true,
        tint: b["tint"]?.stringValue.flatMap(Color.init(hex:)), x: b["x"]?.numberValue, width: b["width"]?.numberValue)
    }
    var centre: Centre?
    if let c = bar?["centre"], case .object = c {
      centre = Centre(
        kind: c["kind"]?.stringValue ?? "title", title: c["title"]?.stringValue,
        titleView: c["titleView"]?["name"]?.stringValue, titleViewWidth: c["titleView"]?["width"]?.numberValue,
        x: c["x"]?.numberValue, width: c["width"]?.numberValue, truncated: c["truncated"]?.boolValue ?? false)
    }
    navigationBar = NavigationBar(
      hidden: bar?["hidden"]?.boolValue ?? false, topItem: bar?["topItem"]?.stringValue,
      prompt: bar?["prompt"]?.stringValue, backButton: back, left: items(bar?["left"]), centre: centre,
      right: items(bar?["right"]), overflow: items(bar?["overflow"]), appearance: Appearance(bar?["appearance"]))
    let toolbar = json["toolbar"]
    self.toolbar = Toolbar(
      hidden: toolbar?["hidden"]?.boolValue ?? false, items: items(toolbar?["items"]),
      overflow: items(toolbar?["overflow"]), appearance: Appearance(toolbar?["appearance"]))
  }
}
