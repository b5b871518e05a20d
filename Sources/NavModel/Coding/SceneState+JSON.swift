extension SceneState {
  /// The state document: what `GetState` returns and the `state` view's patches apply to.
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "navigationBar": [
        "items": .array(navigationBar.items.map(\.json)), "hidden": .bool(navigationBar.hidden),
        "appearance": navigationBar.appearance.json,
      ],
      "toolbar": [
        "items": .array(toolbar.items.map { .string($0) }), "hidden": .bool(toolbar.hidden),
        "appearance": toolbar.appearance.json,
      ],
      "barButtonItems": .array(barButtonItems.items.map(\.json)),
      "appearanceDefaults": appearanceDefaults.json,
    ]
    if let tintColor { members["tintColor"] = .string(tintColor.hex) }
    return .object(members)
  }

  /// Reads a state document: its shape, and the one rule the model cannot hold a broken
  /// form of (two bar button items with one id, R3). `validated(limits:path:)` checks the
  /// other rules; a document from outside (an import, a stored snapshot) must pass both.
  public init(json: JSONValue, path: String = "") throws(NavError) {
    let reader = try FieldReader(json, path: path)
    try reader.rejectUnknown(["navigationBar", "toolbar", "barButtonItems", "tintColor", "appearanceDefaults"])
    let bar = try reader.object("navigationBar")
    try bar.rejectUnknown(["items", "hidden", "appearance"])
    var items: [NavigationItem] = []
    for (i, item) in try bar.optionalArray("items").enumerated() {
      items.append(try NavigationItem(json: item, path: "\(bar.fieldPath("items"))[\(i)]"))
    }
    let toolbar = try reader.object("toolbar")
    try toolbar.rejectUnknown(["items", "hidden", "appearance"])
    var registry = BarButtonItemRegistry()
    for (i, item) in try reader.optionalArray("barButtonItems").enumerated() {
      let field = "\(reader.fieldPath("barButtonItems"))[\(i)]"
      let decoded = try BarButtonItem(json: item, path: field)
      guard !registry.contains(decoded.id) else {
        throw NavError(
          .duplicateItem, "\(field).id defines bar button item \"\(decoded.id)\" a second time (SEMANTICS R3)",
          field: "\(field).id", value: decoded.id)
      }
      registry[decoded.id] = decoded
    }
    self.init(
      navigationBar: NavigationBarState(
        items: items, hidden: try bar.bool("hidden", default: false),
        appearance: try bar.optionalObject("appearance").map { r throws(NavError) in
          try BarAppearance(json: .object(r.members), path: r.path)
        } ?? BarAppearance()),
      toolbar: ToolbarState(
        items: try toolbar.strings("items"), hidden: try toolbar.bool("hidden", default: false),
        appearance: try toolbar.optionalObject("appearance").map { r throws(NavError) in
          try BarAppearance(json: .object(r.members), path: r.path)
        } ?? BarAppearance()),
      barButtonItems: registry,
      tintColor: try reader.optionalColor("tintColor"),
      appearanceDefaults: try reader.optionalObject("appearanceDefaults").map { r throws(NavError) in
        try AppearanceDefaults(json: .object(r.members), path: r.path)
      } ?? AppearanceDefaults())
  }
}
