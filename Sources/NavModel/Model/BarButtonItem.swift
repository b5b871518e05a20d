/// UIBarButtonSystemItem: the system-supplied images and titles.
public enum SystemItem: String, Sendable, Hashable, CaseIterable {
  case done, cancel, edit, save, add, flexibleSpace, fixedSpace, compose, reply, action, organize,
    bookmarks, search, refresh, stop, camera, trash, play, pause, rewind, fastForward, undo, redo,
    pageCurl, close

  /// The two spaces take room but are never drawn or activated.
  public var isSpace: Bool { self == .flexibleSpace || self == .fixedSpace }
}

/// UIBarButtonItemStyle.
public enum ItemStyle: String, Sendable, Hashable, CaseIterable {
  case plain, bordered, done
}

/// A bar button item. It lives once per scene and is referenced by id from
/// every place it is shown, as a UIKit object is; updating it updates them all.
public struct BarButtonItem: Sendable, Hashable, Identifiable {
  /// Unique within the scene (R3).
  public var id: String
  /// Set for a system item; a title or image set later turns it into a custom item (R: system items).
  public var systemItem: SystemItem?
  /// `plain`, `bordered` or `done`.
  public var style: ItemStyle
  /// The item's text; nil for none.
  public var title: String?
  /// The item's image (a template, R45); nil for none.
  public var image: ImageRef?
  /// Explicit width in points; nil means "computed" (SEMANTICS width model).
  public var width: Double?
  /// Titles the item may show; its width is the widest of them.
  public var possibleTitles: [String]
  /// A view shown instead of a title or image.
  public var customView: CustomView?
  /// Whether the item can be activated (R58); a disabled item is still shown.
  public var enabled: Bool
  /// An integer for the app's own use, delivered with activations.
  public var tag: Int
  /// The item's own tint; nil inherits (R56).
  public var tintColor: Color?
  /// The action name delivered to watchers on activation.
  public var action: String?

  /// An item with UIKit's defaults for everything not given.
  public init(
    id: String, systemItem: SystemItem? = nil, style: ItemStyle = .plain, title: String? = nil,
    image: ImageRef? = nil, width: Double? = nil, possibleTitles: [String] = [], customView: CustomView? = nil,
    enabled: Bool = true, tag: Int = 0, tintColor: Color? = nil, action: String? = nil
  ) {
    self.id = id
    self.systemItem = systemItem
    self.style = style
    self.title = title
    self.image = image
    self.width = width
    self.possibleTitles = possibleTitles
    self.customView = customView
    self.enabled = enabled
    self.tag = tag
    self.tintColor = tintColor
    self.action = action
  }
}
