/// The scene's bar button items by id, in definition order, with O(1) lookup.
public struct BarButtonItemRegistry: Sendable, Hashable {
  /// The items, in the order they were defined.
  public private(set) var items: [BarButtonItem] = []
  private var indexByID: [String: Int] = [:]

  /// A registry holding `items` (ids must be unique).
  public init(_ items: [BarButtonItem] = []) {
    for item in items { insert(item) }
  }

  /// How many items the scene defines.
  public var count: Int { items.count }

  /// The item with this id, if defined; setting nil deletes it.
  public subscript(id: String) -> BarButtonItem? {
    get { indexByID[id].map { items[$0] } }
    set {
      if let newValue {
        precondition(newValue.id == id, "registry key \(id) != item id \(newValue.id)")
        if let index = indexByID[id] { items[index] = newValue } else { insert(newValue) }
      } else if let index = indexByID.removeValue(forKey: id) {
        items.remove(at: index)
        for i in index..<items.count { indexByID[items[i].id] = i }
      }
    }
  }

  /// Whether an item with this id is defined.
  public func contains(_ id: String) -> Bool { indexByID[id] != nil }

  private mutating func insert(_ item: BarButtonItem) {
    indexByID[item.id] = items.count
    items.append(item)
  }
}
