extension BarAppearance {
  /// The document form: unset fields are omitted (they inherit).
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "backgroundImages": .array(
        backgroundImages.map {
          ["position": .string($0.position.rawValue), "metrics": .string($0.metrics.rawValue), "image": $0.image.json]
        })
    ]
    if let barStyle { members["barStyle"] = .string(barStyle.rawValue) }
    if let tintColor { members["tintColor"] = .string(tintColor.hex) }
    if let barTintColor { members["barTintColor"] = .string(barTintColor.hex) }
    if let translucent { members["translucent"] = .bool(translucent) }
    if let shadowImage { members["shadowImage"] = shadowImage.json }
    if let titleTextAttributes { members["titleTextAttributes"] = titleTextAttributes.json }
    return .object(members)
  }

  /// Decodes the document form, naming the failing field under `path`.
  public init(json: JSONValue, path: String) throws(NavError) {
    let reader = try FieldReader(json, path: path)
    try reader.rejectUnknown([
      "barStyle", "tintColor", "barTintColor", "translucent", "backgroundImages", "shadowImage", "titleTextAttributes",
    ])
    self.init(
      barStyle: try reader.optionalEnumeration("barStyle", BarStyle.self),
      tintColor: try reader.optionalColor("tintColor"),
      barTintColor: try reader.optionalColor("barTintColor"),
      translucent: try reader.optionalBool("translucent"),
      shadowImage: try reader.optionalImage("shadowImage"),
      titleTextAttributes: try reader.optionalObject("titleTextAttributes").map { r throws(NavError) in
        try TitleTextAttributes(json: .object(r.members), path: r.path)
      })
    for (i, entry) in try reader.optionalArray("backgroundImages").enumerated() {
      let entryReader = try FieldReader(entry, path: "\(reader.fieldPath("backgroundImages"))[\(i)]")
      try entryReader.rejectUnknown(["position", "metrics", "image"])
      let position = try entryReader.enumeration("position", BarPosition.self)
      let metrics = try entryReader.enumeration("metrics", BarMetrics.self)
      let image = try ImageRef(json: try entryReader.required("image"), path: entryReader.fieldPath("image"))
      setBackgroundImage(image, position: position, metrics: metrics)
    }
  }
}

extension AppearanceDefaults {
  /// The document form: both bars, and the default item tint when set.
  public var json: JSONValue {
    var members: [String: JSONValue] = ["navigationBar": navigationBar.json, "toolbar": toolbar.json]
    if let barButtonItemTintColor { members["barButtonItemTintColor"] = .string(barButtonItemTintColor.hex) }
    return .object(members)
  }

  /// Decodes the document form, naming the failing field under `path`.
  public init(json: JSONValue, path: String) throws(NavError) {
    let reader = try FieldReader(json, path: path)
    try reader.rejectUnknown(["navigationBar", "toolbar", "barButtonItemTintColor"])
    self.init(
      navigationBar: try reader.optionalObject("navigationBar").map { r throws(NavError) in
        try BarAppearance(json: .object(r.members), path: r.path)
      } ?? BarAppearance(),
      toolbar: try reader.optionalObject("toolbar").map { r throws(NavError) in
        try BarAppearance(json: .object(r.members), path: r.path)
      } ?? BarAppearance(),
      barButtonItemTintColor: try reader.optionalColor("barButtonItemTintColor"))
  }
}
