import NavModel

/// What navd-gtk draws, read from one resolved layout document (SEMANTICS R62).
///
/// Only a reading of the document: every position, width, tint and colour is navd's. A field
/// the document lacks reads as its R62 "empty" value, so a newer navd's extra fields are
/// ignored and a missing one never crashes a window.
public struct Drawing: Sendable, Equatable {
  /// The navigation bar.
  public var navigationBar: NavigationBar
  /// The toolbar.
  public var toolbar: Toolbar

  /// Reads `document`, a layout document resolved with a width.
  public init(_ document: JSONValue) {
    navigationBar = NavigationBar(document["navigationBar"] ?? .null)
    toolbar = Toolbar(document["toolbar"] ?? .null)
  }

  /// The navigation bar: back button, left items, centre, right items, prompt, overflow.
  public struct NavigationBar: Sendable, Equatable {
    /// `hidden`: the bar is not drawn.
    public var hidden: Bool
    /// The top navigation item's id (sent as `expectTop` with `@back`).
    public var topItem: String?
    /// The prompt line above the bar, when shown.
    public var prompt: String?
    /// The back button, when shown.
    public var backButton: BackButton?
    /// Left items, on screen left to right.
    public var left: [Item]
    /// The title or the title view.
    public var centre: Centre?
    /// Right items, on screen left to right.
    public var right: [Item]
    /// Items that did not fit, for the overflow menu (each with its `side`).
    public var overflow: [Item]
    /// The bar's resolved appearance.
    public var appearance: Appearance

    init(_ json: JSONValue) {
      hidden = json["hidden"]?.boolValue ?? false
      topItem = json["topItem"]?.stringValue
      prompt = json["prompt"]?.stringValue
      backButton = json["backButton"].flatMap { $0.isNull ? nil : BackButton($0) }
      left = Item.list(json["left"])
      centre = json["centre"].flatMap { $0.isNull ? nil : Centre($0) }
      right = Item.list(json["right"])
      overflow = Item.list(json["overflow"])
      appearance = Appearance(json["appearance"] ?? .null)
    }
  }

  /// The toolbar: items left to right, spaces included.
  public struct Toolbar: Sendable, Equatable {
    /// `hidden`: the bar is not drawn.
    public var hidden: Bool
    /// Items left to right, flexible and fixed spaces included, at navd's `x` and `width`.
    public var items: [Item]
    /// Items that did not fit, for the overflow menu.
    public var overflow: [Item]
    /// The bar's resolved appearance.
    public var appearance: Appearance

    init(_ json: JSONValue) {
      hidden = json["hidden"]?.boolValue ?? false
      items = Item.list(json["items"])
      overflow = Item.list(json["overflow"])
      appearance = Appearance(json["appearance"] ?? .null)
    }
  }

  /// A horizontal extent in points: where navd placed something.
  public struct Span: Sendable, Equatable {
    /// Left edge, from the bar's left edge.
    public var x: Double
    /// Width.
    public var width: Double

    /// A span from `x`, `width` members; nil when either is missing (a layout without a width).
    init?(_ json: JSONValue) {
      guard let x = json["x"]?.numberValue, let width = json["width"]?.numberValue else { return nil }
      self.x = x
      self.width = width
    }

    /// A span (tests).
    public init(x: Double, width: Double) {
      self.x = x
      self.width = width
    }
  }

  /// A custom view's or title view's placeholder: navd knows its name and size only.
  public struct Placeholder: Sendable, Equatable {
    /// The view's name.
    public var name: String
    /// Its width in points.
    public var width: Double
    /// Its height in points.
    public var height: Double

    init?(_ json: JSONValue?) {
      guard let json, let name = json["name"]?.stringValue else { return nil }
      self.name = name
      width = json["width"]?.numberValue ?? 0
      height = json["height"]?.numberValue ?? 30
    }
  }

  /// A bar button item as resolved (R62 `Item`).
  public struct Item: Sendable, Equatable {
    /// The bar button item's id (what `Activate` names).
    public var id: String
    /// `system`, `custom`, `title`, `image`, `customView`, `flexibleSpace`, `fixedSpace`.
    public var kind: String
    /// The title, when set.
    public var title: String?
    /// The image's name, when set (looked up in the icon theme).
    public var imageName: String?
    /// The system item, for `system` items.
    public var systemItem: String?
    /// `plain`, `bordered` or `done`.
    public var style: String
    /// The custom view, for `customView` items.
    public var customView: Placeholder?
    /// Disabled items are drawn insensitive.
    public var enabled: Bool
    /// The resolved tint (`#RRGGBB` or `#RRGGBBAA`).
    public var tint: String
    /// Where navd placed it; nil for overflowed items.
    public var span: Span?
    /// For navigation bar overflow: `left` or `right`.
    public var side: String?

    init(_ json: JSONValue) {
      id = json["id"]?.stringValue ?? ""
      kind = json["kind"]?.stringValue ?? "custom"
      title = json["title"]?.stringValue
      imageName = json["image"]?["name"]?.stringValue
      systemItem = json["systemItem"]?.stringValue
      style = json["style"]?.stringValue ?? "plain"
      customView = Placeholder(json["customView"])
      enabled = json["enabled"]?.boolValue ?? true
      tint = json["tint"]?.stringValue ?? Appearance.defaultTint
      span = Span(json)
      side = json["side"]?.stringValue
    }

    /// A flexible or fixed space: drawn as nothing, only its span matters.
    public var isSpace: Bool { kind == "flexibleSpace" || kind == "fixedSpace" }

    /// The label a menu entry or an accessible name uses.
    public var label: String {
      if let title, !title.isEmpty { return title }
      if let systemItem { return SystemItemFace(systemItem).label }
      if let customView { return customView.name }
      if let imageName { return imageName }
      return id
    }

    static func list(_ json: JSONValue?) -> [Item] {
      (json?.arrayValue ?? []).map(Item.init)
    }
  }

  /// The back button (R23–R25): the back item's title or image.
  public struct BackButton: Sendable, Equatable {
    /// The title to show (navd already chose the back item's title or "Back").
    public var title: String?
    /// An image to show instead of the chevron's text, when set.
    public var imageName: String?
    /// Disabled back buttons are drawn insensitive.
    public var enabled: Bool
    /// The resolved tint.
    public var tint: String
    /// Where navd placed it.
    public var span: Span?

    init(_ json: JSONValue) {
      title = json["title"]?.stringValue
      imageName = json["image"]?["name"]?.stringValue
      enabled = json["enabled"]?.boolValue ?? true
      tint = json["tint"]?.stringValue ?? Appearance.defaultTint
      span = Span(json)
    }
  }

  /// The centre: a title, or a title view's placeholder.
  public struct Centre: Sendable, Equatable {
    /// The title (also the title view's accessible name).
    public var title: String?
    /// The title view, for a `titleView` centre.
    public var titleView: Placeholder?
    /// Where navd placed it.
    public var span: Span?
    /// navd cut the title to the band it had: draw it ellipsized.
    public var truncated: Bool

    init(_ json: JSONValue) {
      title = json["title"]?.stringValue
      titleView = json["kind"]?.stringValue == "titleView" ? Placeholder(json["titleView"]) : nil
      span = Span(json)
      truncated = json["truncated"]?.boolValue ?? false
    }
  }

  /// A bar's resolved appearance (R48–R56).
  public struct Appearance: Sendable, Equatable {
    /// UIKit's system blue, navd's last tint fallback (R56); used only if a document lacks a tint.
    static let defaultTint = "#007AFF"

    /// `default` (light bar, dark text) or `black` (dark bar, light text).
    public var barStyle: String
    /// Whether the bar is translucent.
    public var translucent: Bool
    /// The colour to fill the bar with; nil when a background image alone is drawn.
    public var backgroundColor: String?
    /// The background image's name and opacity, when one was found.
    public var backgroundImage: (name: String, opacity: Double)?
    /// The bar's tint.
    public var tint: String
    /// The title's font family, when set.
    public var titleFont: String?
    /// The title's size in points, when set.
    public var titleSize: Double?
    /// The title's colour, when set.
    public var titleColor: String?

    init(_ json: JSONValue) {
      barStyle = json["barStyle"]?.stringValue ?? "default"
      translucent = json["translucent"]?.boolValue ?? true
      backgroundColor = json["backgroundColor"]?.stringValue
      if let image = json["backgroundImage"], let name = image["name"]?.stringValue {
        backgroundImage = (name, image["opacity"]?.numberValue ?? 1)
      }
      tint = json["tint"]?.stringValue ?? Self.defaultTint
      let attributes = json["titleTextAttributes"]
      titleFont = attributes?["font"]?.stringValue
      titleSize = attributes?["size"]?.numberValue
      titleColor = attributes?["color"]?.stringValue
    }

    /// Whether text on this bar is light (the black style).
    public var isDark: Bool { barStyle == "black" }

    /// Equal when every field is (the image tuple is not `Equatable` by itself).
    public static func == (a: Appearance, b: Appearance) -> Bool {
      a.barStyle == b.barStyle && a.translucent == b.translucent && a.backgroundColor == b.backgroundColor
        && a.backgroundImage?.name == b.backgroundImage?.name
        && a.backgroundImage?.opacity == b.backgroundImage?.opacity && a.tint == b.tint
        && a.titleFont == b.titleFont && a.titleSize == b.titleSize && a.titleColor == b.titleColor
    }
  }
}
