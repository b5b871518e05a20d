/// The scene's bar button items by id, in definition order, with O(1) lookup.
///
/// Each item is kept in a box of its own, replaced (never changed) when the item is: a
/// mutation applies to a copy of the scene (`SceneState.applying`), and the first item it
/// sets copies the registry's array; an array of boxes copies one reference per item, where
/// an array of items copied every field of each (BENCHMARKS.md, "The instruction budget").
public struct BarButtonItemRegistry: Sendable, Hashable {
  /// One item, shared by every copy of the registry until one of them replaces it.
  private final class Box: Sendable {
    let item: BarButtonItem
    init(_ item: BarButtonItem) { self.item = item }
  }

  private var boxes: [Box] = []
  private var indexByID: [String: Int] = [:]

  /// A registry holding `items` (ids must be unique).
  public init(_ items: [BarButtonItem] = []) {
    for item in items { insert(item) }
  }

  /// The items, in the order they were defined.
  public var items: [BarButtonItem] { boxes.map(\.item) }

  /// How many items the scene defines.
  public var count: Int { boxes.count }

  /// The item with this id, if defined; setting nil deletes it.
  public subscript(id: String) -> BarButtonItem? {
    get { indexByID[id].map { boxes[$0].item } }
    set {
      if let newValue {
        precondition(newValue.id == id, "registry key \(id) != item id \(newValue.id)")
        if let index = indexByID[id] { boxes[index] = Box(newValue) } else { insert(newValue) }
      } else if let index = indexByID.removeValue(forKey: id) {
        boxes.remove(at: index)
        for i in index..<boxes.count { indexByID[boxes[i].item.id] = i }
      }
    }
  }

  /// Where the item with this id is (for `item(at:)` and `replace(at:with:)`), if defined:
  /// an update that reads the item and sets it again looks its id up once.
  public func index(of id: String) -> Int? { indexByID[id] }

  /// The item at `index` (from `index(of:)`).
  public func item(at index: Int) -> BarButtonItem { boxes[index].item }

  /// Replaces the item at `index` (from `index(of:)`) with `item`, which keeps its id.
  public mutating func replace(at index: Int, with item: BarButtonItem) {
    precondition(item.id == boxes[index].item.id, "replacing \(boxes[index].item.id) with \(item.id)")
    boxes[index] = Box(item)
  }

  /// Whether an item with this id is defined.
  public func contains(_ id: String) -> Bool { indexByID[id] != nil }

  private mutating func insert(_ item: BarButtonItem) {
    indexByID[item.id] = boxes.count
    boxes.append(Box(item))
  }

  /// Equal when they hold equal items in the same order (the index follows from them).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.boxes.count == rhs.boxes.count
      && zip(lhs.boxes, rhs.boxes).allSatisfy { $0 === $1 || $0.item == $1.item }
  }

  /// Hashes the items in order, as equality compares them.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(boxes.count)
    for box in boxes { hasher.combine(box.item) }
  }
}
