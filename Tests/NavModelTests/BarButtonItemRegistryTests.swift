import NavModel
import Testing

/// `BarButtonItemRegistry` keeps each item in a box it replaces, never changes: a copy of
/// the registry (the scene `SceneState.applying` starts from) must not see the items the
/// other copy sets or deletes, and equality and hashing are of the items, in order.
@Suite("BarButtonItemRegistry")
struct BarButtonItemRegistryTests {
  let items = [
    BarButtonItem(id: "a", title: "A"), BarButtonItem(id: "b", systemItem: .add), BarButtonItem(id: "c", title: "C"),
  ]

  @Test("setting, replacing and deleting an item leaves a copy of the registry as it was")
  func copiesAreIndependent() {
    let original = BarButtonItemRegistry(items)
    var copy = original
    copy["a"] = BarButtonItem(id: "a", title: "Changed")
    copy.replace(at: copy.index(of: "c")!, with: BarButtonItem(id: "c", title: "Replaced", enabled: false))
    copy["b"] = nil
    copy["d"] = BarButtonItem(id: "d", title: "D")
    #expect(original.items == items)
    #expect(original["a"]?.title == "A")
    #expect(original.count == 3)
    #expect(copy.items.map(\.id) == ["a", "c", "d"])
    #expect(copy["c"] == BarButtonItem(id: "c", title: "Replaced", enabled: false))
    #expect(copy.index(of: "d") == 2)
    #expect(copy.item(at: 2).title == "D")
    #expect(!copy.contains("b"))
  }

  @Test("registries are equal, and hash alike, when their items are equal in the same order")
  func equalityFollowsTheItems() {
    var rebuilt = BarButtonItemRegistry(items)
    rebuilt["a"] = BarButtonItem(id: "a", title: "A")
    #expect(rebuilt == BarButtonItemRegistry(items))
    #expect(rebuilt.hashValue == BarButtonItemRegistry(items).hashValue)
    rebuilt["a"] = BarButtonItem(id: "a", title: "B")
    #expect(rebuilt != BarButtonItemRegistry(items))
    #expect(BarButtonItemRegistry(items.reversed()) != BarButtonItemRegistry(items))
    #expect(BarButtonItemRegistry(Array(items.prefix(2))) != BarButtonItemRegistry(items))
  }
}
