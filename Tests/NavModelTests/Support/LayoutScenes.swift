import NavModel

/// Small builders for the layout resolver tests.
///
/// States are built directly (not through ops) so a resolver test fails only
/// for a resolver bug; the randomized test is the one that goes through ops.
enum LayoutScenes {
  /// A scene with `stack` (root first), the bar button items `items` and toolbar ids `toolbar`.
  static func scene(
    _ stack: [NavigationItem], items: [BarButtonItem] = [], toolbar: [String] = []
  ) -> SceneState {
    SceneState(
      navigationBar: NavigationBarState(items: stack), toolbar: ToolbarState(items: toolbar),
      barButtonItems: BarButtonItemRegistry(items))
  }

  /// A title item: `title` defaults to the id.
  static func titled(_ id: String, _ title: String? = nil) -> BarButtonItem {
    BarButtonItem(id: id, title: title ?? id)
  }

  static func system(_ id: String, _ systemItem: SystemItem, width: Double? = nil) -> BarButtonItem {
    BarButtonItem(id: id, systemItem: systemItem, width: width)
  }

  static func image(_ id: String, _ name: String = "icon", opaque: Bool = true) -> BarButtonItem {
    BarButtonItem(id: id, image: ImageRef(name: name, opaque: opaque))
  }

  static let red = Color(red: 0xFF, green: 0x3B, blue: 0x30)
  static let green = Color(red: 0x34, green: 0xC7, blue: 0x59)
  static let orange = Color(red: 0xFF, green: 0x95, blue: 0x00)
  static let purple = Color(red: 0xAF, green: 0x52, blue: 0xDE)
  static let teal = Color(red: 0x30, green: 0xB0, blue: 0xC7)
  static let grey = Color(red: 0x80, green: 0x80, blue: 0x80, alpha: 0x80)
}

extension NavigationBarLayout {
  /// Ids of the shown left items, left to right.
  var leftIDs: [String] { left.map(\.id) }
  /// Ids of the shown right items, on screen left to right.
  var rightIDs: [String] { right.map(\.id) }
  /// Ids of the overflowed items with their side.
  var overflowIDs: [String] { overflow.map { "\($0.side.rawValue):\($0.id)" } }
}

extension ToolbarLayout {
  var itemIDs: [String] { items.map(\.id) }
}

extension Array where Element == LayoutItem {
  /// `id@x+width` for each item: compact and exact for geometry assertions.
  var geometry: [String] {
    map { item in
      guard let extent = item.extent else { return "\(item.id)@-" }
      return "\(item.id)@\(extent.x)+\(extent.width)"
    }
  }
}
