/// A named image, carrying what the rules need to know of its pixels.
///
/// navd never sees pixels: the client says whether the image is fully opaque
/// (which decides a bar's translucency, SEMANTICS "Appearance") and, when it
/// matters for width, its size in points.
public struct ImageRef: Sendable, Hashable {
  /// The image's name, which the front end resolves to pixels.
  public var name: String
  /// True when every pixel has alpha 1.
  public var opaque: Bool
  /// Width in points, when it matters for layout.
  public var width: Double?
  /// Height in points, when known.
  public var height: Double?

  /// An image reference; opaque unless said otherwise.
  public init(name: String, opaque: Bool = true, width: Double? = nil, height: Double? = nil) {
    self.name = name
    self.opaque = opaque
    self.width = width
    self.height = height
  }
}

/// A custom view, by name, with the size the front end will give it.
public struct CustomView: Sendable, Hashable {
  /// The view's name, which the front end resolves to a view.
  public var name: String
  /// Width in points (the layout reserves it).
  public var width: Double
  /// Height in points.
  public var height: Double

  /// A custom view of the given size (height 30 by default).
  public init(name: String, width: Double, height: Double = 30) {
    self.name = name
    self.width = width
    self.height = height
  }
}

/// Text attributes for the navigation bar's title.
public struct TitleTextAttributes: Sendable, Hashable {
  /// Font name; nil: the system font.
  public var font: String?
  /// Point size; nil: the system size.
  public var size: Double?
  /// Text colour; nil: from the bar style.
  public var color: Color?

  /// Attributes; each unset field keeps the system's.
  public init(font: String? = nil, size: Double? = nil, color: Color? = nil) {
    self.font = font
    self.size = size
    self.color = color
  }
}
