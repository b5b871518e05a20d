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
///
/// The fields live in one shared, immutable box (`Fields`): a copy of the
/// appearance is one retain, and two appearances in the same box are equal
/// without comparing a field. A scene holds four appearances that almost no
/// mutation changes, and every version's state is a copy of the one before,
/// so copying and comparing states no longer walks them.
/// Setting a field puts the changed fields in a new box.
public struct BarAppearance: Sendable, Hashable {
  /// The fields as a plain value, whose synthesized `==` and `hash(into:)`
  /// are the appearance's.
  private struct Fields: Sendable, Hashable {
    var barStyle: BarStyle?
    var tintColor: Color?
    var barTintColor: Color?
    var translucent: Bool?
    var backgroundImages: [BackgroundImage] = []
    var shadowImage: ImageRef?
    var titleTextAttributes: TitleTextAttributes?
  }

  /// The box copies share; never changed once made.
  private final class Box: Sendable {
    let fields: Fields

    init(_ fields: Fields) {
      self.fields = fields
    }

    /// The box of an appearance that sets nothing, shared by all of them.
    static let unset = Box(Fields())
  }

  private var box: Box

  /// Light or dark bar (R49); nil inherits.
  public var barStyle: BarStyle? {
    get { box.fields.barStyle }
    set { change { $0.barStyle = newValue } }
  }
  /// Tint of the bar's items (R56); nil inherits.
  public var tintColor: Color? {
    get { box.fields.tintColor }
    set { change { $0.tintColor = newValue } }
  }
  /// The bar's background colour (R53); nil inherits.
  public var barTintColor: Color? {
    get { box.fields.barTintColor }
    set { change { $0.barTintColor = newValue } }
  }
  /// nil: unset, so translucency follows the background image (SEMANTICS "Appearance").
  public var translucent: Bool? {
    get { box.fields.translucent }
    set { change { $0.translucent = newValue } }
  }
  /// At most one entry per (position, metrics), kept sorted by them.
  public var backgroundImages: [BackgroundImage] {
    get { box.fields.backgroundImages }
    set { change { $0.backgroundImages = newValue } }
  }
  /// Replaces the hairline under the bar, shown only with a background image (R55).
  public var shadowImage: ImageRef? {
    get { box.fields.shadowImage }
    set { change { $0.shadowImage = newValue } }
  }
  /// Navigation bar only; ignored on the toolbar.
  public var titleTextAttributes: TitleTextAttributes? {
    get { box.fields.titleTextAttributes }
    set { change { $0.titleTextAttributes = newValue } }
  }

  /// An appearance that sets nothing (inherits everything).
  public init() {
    box = .unset
  }

  /// An appearance; every field defaults to unset (inherit).
  public init(
    barStyle: BarStyle? = nil, tintColor: Color? = nil, barTintColor: Color? = nil, translucent: Bool? = nil,
    backgroundImages: [BackgroundImage] = [], shadowImage: ImageRef? = nil,
    titleTextAttributes: TitleTextAttributes? = nil
  ) {
    box = Box(
      Fields(
        barStyle: barStyle, tintColor: tintColor, barTintColor: barTintColor, translucent: translucent,
        backgroundImages: backgroundImages, shadowImage: shadowImage, titleTextAttributes: titleTextAttributes))
  }

  /// Puts the fields, changed by `body`, in a new box.
  private mutating func change(_ body: (inout Fields) -> Void) {
    var fields = box.fields
    body(&fields)
    box = Box(fields)
  }

  /// Equal when they share a box, else when every field is equal.
  public static func == (lhs: BarAppearance, rhs: BarAppearance) -> Bool {
    lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
  }

  /// The fields' hash: equal appearances in different boxes hash alike.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(box.fields)
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

extension BarAppearance: CustomReflectable {
  /// The fields, not the box, so printed states and test failures show them.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "barStyle": barStyle as Any, "tintColor": tintColor as Any, "barTintColor": barTintColor as Any,
        "translucent": translucent as Any, "backgroundImages": backgroundImages,
        "shadowImage": shadowImage as Any, "titleTextAttributes": titleTextAttributes as Any,
      ], displayStyle: .struct)
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
