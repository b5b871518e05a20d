/// UIBarStyle.
public enum BarStyle: String, Sendable, Hashable, CaseIterable {
  case `default`, black
}

/// UIBarPosition: where a bar sits, which picks its background image.
public enum BarPosition: String, Sendable, Hashable, CaseIterable {
  case any, bottom, top, topAttached
}

/// UIBarMetrics: the bar's height class, which picks its background image.
public enum BarMetrics: String, Sendable, Hashable, CaseIterable {
  case `default`, compact, defaultPrompt, compactPrompt
}

/// A background image for one (position, metrics) pair.
public struct BackgroundImage: Sendable, Hashable {
  /// The bar position the image is for (R51).
  public var position: BarPosition
  /// The bar metrics the image is for (R50).
  public var metrics: BarMetrics
  /// The image itself.
  public var image: ImageRef

  /// An entry for one (position, metrics) pair.
  public init(position: BarPosition, metrics: BarMetrics, image: ImageRef) {
    self.position = position
    self.metrics = metrics
    self.image = image
  }
}

/// A bar's appearance. Every field is optional: unset means "inherit from the
/// appearance defaults, then the system default" (UIKit's appearance proxy).
public struct BarAppearance: Sendable, Hashable {
  /// Light or dark bar (R49); nil inherits.
  public var barStyle: BarStyle?
  /// Tint of the bar's items (R56); nil inherits.
  public var tintColor: Color?
  /// The bar's background colour (R53); nil inherits.
  public var barTintColor: Color?
  /// nil: unset, so translucency follows the background image (SEMANTICS "Appearance").
  public var translucent: Bool?
  /// At most one entry per (position, metrics), kept sorted by them.
  public var backgroundImages: [BackgroundImage]
  /// Replaces the hairline under the bar, shown only with a background image (R55).
  public var shadowImage: ImageRef?
  /// Navigation bar only; ignored on the toolbar.
  public var titleTextAttributes: TitleTextAttributes?

  /// An appearance; every field defaults to unset (inherit).
  public init(
    barStyle: BarStyle? = nil, tintColor: Color? = nil, barTintColor: Color? = nil, translucent: Bool? = nil,
    backgroundImages: [BackgroundImage] = [], shadowImage: ImageRef? = nil,
    titleTextAttributes: TitleTextAttributes? = nil
  ) {
    self.barStyle = barStyle
    self.tintColor = tintColor
    self.barTintColor = barTintColor
    self.translucent = translucent
    self.backgroundImages = backgroundImages
    self.shadowImage = shadowImage
    self.titleTextAttributes = titleTextAttributes
  }

  /// The image set for exactly this (position, metrics), without fallback.
  public func backgroundImage(position: BarPosition, metrics: BarMetrics) -> ImageRef? {
    backgroundImages.first { $0.position == position && $0.metrics == metrics }?.image
  }

  /// Sets or (with nil) removes the image for (position, metrics), keeping the list sorted.
  public mutating func setBackgroundImage(_ image: ImageRef?, position: BarPosition, metrics: BarMetrics) {
    backgroundImages.removeAll { $0.position == position && $0.metrics == metrics }
    if let image {
      backgroundImages.append(BackgroundImage(position: position, metrics: metrics, image: image))
      backgroundImages.sort { lhs, rhs in
        let l = (BarPosition.allCases.firstIndex(of: lhs.position)!, BarMetrics.allCases.firstIndex(of: lhs.metrics)!)
        let r = (BarPosition.allCases.firstIndex(of: rhs.position)!, BarMetrics.allCases.firstIndex(of: rhs.metrics)!)
        return l < r
      }
    }
  }
}

/// The scene's appearance proxy: values every bar and item uses unless it sets its own.
public struct AppearanceDefaults: Sendable, Hashable {
  /// Defaults for the navigation bar (`defaultNavigationBar`).
  public var navigationBar: BarAppearance
  /// Defaults for the toolbar (`defaultToolbar`).
  public var toolbar: BarAppearance
  /// Tint for every bar button item that sets none (UIBarButtonItem.appearance()).
  public var barButtonItemTintColor: Color?

  /// Defaults that set nothing, unless given.
  public init(
    navigationBar: BarAppearance = BarAppearance(), toolbar: BarAppearance = BarAppearance(),
    barButtonItemTintColor: Color? = nil
  ) {
    self.navigationBar = navigationBar
    self.toolbar = toolbar
    self.barButtonItemTintColor = barButtonItemTintColor
  }
}
