/// A named image, carrying what the rules need to know of its pixels.
///
/// navd never sees pixels: the client says whether the image is fully opaque
/// (which decides a bar's translucency, SEMANTICS "Appearance") and, when it
/// matters for width, its size in points.
public struct ImageRef: Sendable, Hashable {
  public var name: String
  /// True when every pixel has alpha 1.
  public var opaque: Bool
  public var width: Double?
  public var height: Double?

  public init(name: String, opaque: Bool = true, width: Double? = nil, height: Double? = nil) {
    self.name = name
    self.opaque = opaque
    self.width = width
    self.height = height
  }
}

/// A custom view, by name, with the size the front end will give it.
public struct CustomView: Sendable, Hashable {
  public var name: String
  public var width: Double
  public var height: Double

  public init(name: String, width: Double, height: Double = 30) {
    self.name = name
    self.width = width
    self.height = height
  }
}

/// Text attributes for the navigation bar's title.
public struct TitleTextAttributes: Sendable, Hashable {
  public var font: String?
  public var size: Double?
  public var color: Color?

  public init(font: String? = nil, size: Double? = nil, color: Color? = nil) {
    self.font = font
    self.size = size
    self.color = color
  }
}
