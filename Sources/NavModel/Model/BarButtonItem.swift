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
  public var id: String
  /// Set for a system item; a title or image set later turns it into a custom item (R: system items).
  public var systemItem: SystemItem?
  public var style: ItemStyle
  public var title: String?
  public var image: ImageRef?
  /// Explicit width in points; nil means "computed" (SEMANTICS width model).
  public var width: Double?
  /// Titles the item may show; its width is the widest of them.
  public var possibleTitles: [String]
  public var customView: CustomView?
  public var enabled: Bool
  public var tag: Int
  public var tintColor: Color?
  /// The action name delivered to watchers on activation.
  public var action: String?

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
