/// A named, id-addressed field of a scene: the unit of conflict detection (CONFLICTS.md).
///
/// Keys name items by id, never by index, so "the same field" keeps its
/// meaning while others push, pop or reorder.
public struct FieldKey: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// What the field belongs to.
  public enum Target: Sendable, Hashable {
    case navigationItem(String)
    case barButtonItem(String)
    case appearance(AppearanceTarget)
    case bar(Bar)
    case scene
  }

  /// The item or bar the field belongs to.
  public var target: Target
  /// The field's name within its target (`title`, `items`, `backgroundImage/top/default`).
  public var field: String

  /// The key of `field` of `target`.
  public init(_ target: Target, _ field: String) {
    self.target = target
    self.field = field
  }

  /// `navigationItem/inbox/title`, `barButtonItem/compose/enabled`, `appearance/toolbar/tintColor`, …
  public var description: String {
    switch target {
    case .navigationItem(let id): "navigationItem/\(id)/\(field)"
    case .barButtonItem(let id): "barButtonItem/\(id)/\(field)"
    case .appearance(let target): "appearance/\(target.rawValue)/\(field)"
    case .bar(let bar): "\(bar.rawValue)/\(field)"
    case .scene: "scene/\(field)"
    }
  }

  /// Keys sort by their text, so reports list them in a stable order.
  public static func < (lhs: FieldKey, rhs: FieldKey) -> Bool { lhs.description < rhs.description }

  /// The field's current value in `state` as it appears in the state document (null when unset or gone).
  public func value(in state: SceneState) -> JSONValue {
    switch target {
    case .navigationItem(let id):
      guard let item = state.navigationBar.items.first(where: { $0.id == id }) else { return .null }
      switch field {
      case "leftBarButtonItem": return item.leftBarButtonItems.first.map { .string($0) } ?? .null
      case "rightBarButtonItem": return item.rightBarButtonItems.first.map { .string($0) } ?? .null
      default: return item.json[field] ?? .null
      }
    case .barButtonItem(let id):
      return state.barButtonItems[id]?.json[field] ?? .null
    case .appearance(let target):
      let appearance: BarAppearance =
        switch target {
        case .navigationBar: state.navigationBar.appearance
        case .toolbar: state.toolbar.appearance
        case .defaultNavigationBar: state.appearanceDefaults.navigationBar
        case .defaultToolbar: state.appearanceDefaults.toolbar
        }
      if field.hasPrefix("backgroundImage/") {
        let parts = field.split(separator: "/")
        guard parts.count == 3, let position = BarPosition(rawValue: String(parts[1])),
          let metrics = BarMetrics(rawValue: String(parts[2]))
        else { return .null }
        return appearance.backgroundImage(position: position, metrics: metrics)?.json ?? .null
      }
      return appearance.json[field] ?? .null
    case .bar(.navigationBar):
      return field == "hidden"
        ? .bool(state.navigationBar.hidden) : .array(state.navigationBar.items.map { .string($0.id) })
    case .bar(.toolbar):
      return field == "hidden" ? .bool(state.toolbar.hidden) : .array(state.toolbar.items.map { .string($0) })
    case .scene:
      switch field {
      case "tintColor": return state.tintColor.map { .string($0.hex) } ?? .null
      default: return state.appearanceDefaults.barButtonItemTintColor.map { .string($0.hex) } ?? .null
      }
    }
  }
}

/// How an op touches fields: a `write` replaces a field's value; an `edit`
/// changes an array element by id (insert, remove, move, push, pop) and keeps
/// the rest; a `creation` gives a whole item (every field of a target) its values.
///
/// A write conflicts with an earlier write or edit of the same key, or the
/// creation of its target, by someone else; an edit never conflicts
/// (CONFLICTS.md §4).
public struct FieldAccesses: Sendable, Hashable {
  /// Fields whose whole value the op replaces.
  public var writes: [FieldKey] = []
  /// Arrays the op changes one element of, by id.
  public var edits: [FieldKey] = []
  /// Items the op gives all their values to (push, setStack, define).
  public var creations: [FieldKey.Target] = []

  /// An op's accesses; each list defaults to empty.
  public init(writes: [FieldKey] = [], edits: [FieldKey] = [], creations: [FieldKey.Target] = []) {
    self.writes = writes
    self.edits = edits
    self.creations = creations
  }
}
