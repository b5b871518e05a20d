/// How a system item looks (SEMANTICS R40: "the front end supplies the system image or
/// title"): the freedesktop icon it is drawn with, or the word it shows.
///
/// UIKit draws `done`, `cancel`, `edit` and `save` as words and the rest as glyphs; the glyphs
/// here are the freedesktop Icon Naming Specification's names (symbolic variants, which GTK
/// recolours with the item's tint), all present in Debian's adwaita-icon-theme. The table is
/// the package README's "System items" section.
public struct SystemItemFace: Sendable, Equatable {
  /// The icon name, or nil for a system item drawn as a word.
  public var iconName: String?
  /// The word shown (for a word item) or the accessible name and menu label (for a glyph).
  public var label: String

  /// The face of `systemItem` (a name of SEMANTICS R40; an unknown one shows its name).
  public init(_ systemItem: String) {
    let face = Self.table[systemItem]
    iconName = face?.icon
    label = face?.label ?? systemItem
  }

  /// Every system item of R40 but the two spaces (which are never drawn).
  static let table: [String: (icon: String?, label: String)] = [
    "done": (nil, "Done"),
    "cancel": (nil, "Cancel"),
    "edit": (nil, "Edit"),
    "save": (nil, "Save"),
    "add": ("list-add-symbolic", "Add"),
    "compose": ("mail-message-new-symbolic", "Compose"),
    "reply": ("mail-reply-sender-symbolic", "Reply"),
    "action": ("send-to-symbolic", "Share"),
    "organize": ("folder-symbolic", "Organize"),
    "bookmarks": ("user-bookmarks-symbolic", "Bookmarks"),
    "search": ("system-search-symbolic", "Search"),
    "refresh": ("view-refresh-symbolic", "Refresh"),
    "stop": ("process-stop-symbolic", "Stop"),
    "camera": ("camera-photo-symbolic", "Camera"),
    "trash": ("user-trash-symbolic", "Trash"),
    "play": ("media-playback-start-symbolic", "Play"),
    "pause": ("media-playback-pause-symbolic", "Pause"),
    "rewind": ("media-seek-backward-symbolic", "Rewind"),
    "fastForward": ("media-seek-forward-symbolic", "Fast Forward"),
    "undo": ("edit-undo-symbolic", "Undo"),
    "redo": ("edit-redo-symbolic", "Redo"),
    "pageCurl": ("view-paged-symbolic", "Page Curl"),
    "close": ("window-close-symbolic", "Close"),
  ]

  /// The system items this table draws, for the README and tests.
  public static var names: [String] { table.keys.sorted() }
}
