/// Reading the layout document (SEMANTICS R62) back into a `Layout`: the
/// inverse of `Layout.json`, for clients that draw what `GetLayout` and layout
/// subscriptions send (`Layout(json: layout.json) == layout`).
///
/// Every field `json` writes is read with its type; a value of the wrong type
/// or an unknown enumeration case is an error naming its path
/// (`navigationBar.left[1].kind`). Members the document does not define are
/// ignored, as a reply's are.
extension Layout {
  /// Reads a layout document.
  public init(json: JSONValue) throws(NavError) {
    let reader = try FieldReader(json, path: "")
    self.init(
      navigationBar: try NavigationBarLayout(reading: try reader.object("navigationBar")),
      toolbar: try ToolbarLayout(reading: try reader.object("toolbar")))
  }
}

extension NavigationBarLayout {
  init(reading reader: FieldReader) throws(NavError) {
    self.init(
      hidden: try reader.requiredBool("hidden"), topItem: try reader.optionalString("topItem"),
      prompt: try reader.optionalString("prompt"),
      backButton: try reader.optionalObject("backButton").map { r throws(NavError) in try BackButtonLayout(reading: r)
      },
      left: try reader.layoutItems("left"),
      centre: try reader.optionalObject("centre").map { r throws(NavError) in try CentreLayout(reading: r) },
      right: try reader.layoutItems("right"),
      overflow: try reader.elements("overflow") { r throws(NavError) in
        OverflowedItem(try LayoutItem(reading: r), side: try r.enumeration("side", BarSide.self))
      },
      appearance: try ResolvedAppearance(reading: try reader.object("appearance")))
  }
}

extension ToolbarLayout {
  init(reading reader: FieldReader) throws(NavError) {
    self.init(
      hidden: try reader.requiredBool("hidden"), items: try reader.layoutItems("items"),
      overflow: try reader.layoutItems("overflow"),
      appearance: try ResolvedAppearance(reading: try reader.object("appearance")))
  }
}

extension BackButtonLayout {
  init(reading reader: FieldReader) throws(NavError) {
    self.init(
      sourceItem: try reader.string("sourceItem"), item: try reader.optionalString("item"),
      title: try reader.optionalString("title"), image: try reader.optionalImage("image"),
      enabled: try reader.requiredBool("enabled"), tint: try reader.color("tint"), extent: try reader.extent())
  }
}

extension CentreLayout {
  init(reading reader: FieldReader) throws(NavError) {
    self.init(
      kind: try reader.enumeration("kind", Kind.self), title: try reader.optionalString("title"),
      titleView: try reader.optionalCustomView("titleView"), extent: try reader.extent(),
      truncated: try reader.optionalBool("truncated"))
  }
}

extension LayoutItem {
  init(reading reader: FieldReader) throws(NavError) {
    self.init(
      id: try reader.string("id"), kind: try reader.enumeration("kind", Kind.self),
      title: try reader.optionalString("title"), image: try reader.optionalImage("image"),
      systemItem: try reader.optionalEnumeration("systemItem", SystemItem.self),
      style: try reader.enumeration("style", ItemStyle.self), customView: try reader.optionalCustomView("customView"),
      enabled: try reader.requiredBool("enabled"), tint: try reader.color("tint"), extent: try reader.extent())
  }
}

extension ResolvedAppearance {
  init(reading reader: FieldReader) throws(NavError) {
    let attributes = try reader.optionalObject("titleTextAttributes")
    self.init(
      barStyle: try reader.enumeration("barStyle", BarStyle.self), translucent: try reader.requiredBool("translucent"),
      backgroundColor: try reader.optionalColor("backgroundColor"),
      backgroundImage: try reader.optionalObject("backgroundImage").map { r throws(NavError) in
        try ResolvedBackgroundImage(reading: r)
      },
      shadowImage: try reader.optionalImage("shadowImage"), tint: try reader.color("tint"),
      titleTextAttributes: try attributes.map { r throws(NavError) in
        TitleTextAttributes(
          font: try r.optionalString("font"), size: try r.optionalNumber("size"), color: try r.optionalColor("color"))
      })
  }
}

extension ResolvedBackgroundImage {
  /// The image's members with `position`, `metrics` and `opacity` beside them.
  init(reading reader: FieldReader) throws(NavError) {
    self.init(
      image: ImageRef(
        name: try reader.string("name"), opaque: try reader.requiredBool("opaque"),
        width: try reader.optionalNumber("width"), height: try reader.optionalNumber("height")),
      position: try reader.enumeration("position", BarPosition.self),
      metrics: try reader.enumeration("metrics", BarMetrics.self), opacity: try reader.number("opacity"))
  }
}

extension FieldReader {
  /// A required colour (R68).
  fileprivate func color(_ key: String) throws(NavError) -> Color {
    if let color = try optionalColor(key) { return color }
    throw missing(key)
  }

  /// `x` and `width`, both or neither (R62: present exactly with a width).
  fileprivate func extent() throws(NavError) -> Extent? {
    let x = try optionalNumber("x")
    let width = try optionalNumber("width")
    switch (x, width) {
    case (let x?, let width?): return Extent(x: x, width: width)
    case (nil, nil): return nil
    case (nil, _): throw missing("x")
    case (_, nil): throw missing("width")
    }
  }

  private func missing(_ key: String) -> NavError {
    NavError(.invalidMutation, "missing required field \(fieldPath(key))", field: fieldPath(key))
  }

  /// The objects of an array member, each read by `read` with its path (`left[2]`).
  fileprivate func elements<T>(_ key: String, _ read: (FieldReader) throws(NavError) -> T) throws(NavError) -> [T] {
    var result: [T] = []
    for (index, element) in try array(key).enumerated() {
      result.append(try read(try FieldReader(element, path: "\(fieldPath(key))[\(index)]")))
    }
    return result
  }

  fileprivate func layoutItems(_ key: String) throws(NavError) -> [LayoutItem] {
    try elements(key) { r throws(NavError) in try LayoutItem(reading: r) }
  }
}
