import NavTestSupport
import Testing

@testable import NavModel

/// `LayoutDocument.residentBytes`, what the layout cache weighs a width at (PROTOCOL.md §6).
@Suite("Layout document: resident weight")
struct LayoutDocumentResidentTests {
  @Test("§6 a document's resident weight is its estimate when made, and stays near it as the scene changes")
  func weightFollowsTheDocument() throws {
    var updates = 0
    var generator = LayoutOpGenerator(rng: SplitMix64(seed: SplitMix64.testSeed(default: 0x5E51_DE47)))
    for _ in 0..<20 {
      var state = SceneState.empty
      let allMetrics = generator.metrics()
      var documents = allMetrics.map { LayoutDocument(state, metrics: $0) }
      for _ in 0..<40 {
        let ops = generator.batch(in: state, count: 2)
        guard let result = try? state.applying(ops) else { continue }
        let change = LayoutChange(ops: ops, in: result.state)
        for index in documents.indices {
          documents[index].update(to: result.state, change: change)
          let fresh = LayoutDocument(result.state, metrics: allMetrics[index])
          #expect(fresh.residentBytes == fresh.estimatedResidentBytes)
          #expect(fresh.layoutResidentBytes == fresh.layout.residentBytes)
          // Kept between relayouts: a part set in place changes at most a string's allocation.
          let kept = documents[index].residentBytes
          #expect(
            kept <= 2 * fresh.residentBytes && fresh.residentBytes <= 2 * kept,
            "kept \(kept), fresh \(fresh.residentBytes)")
          let keptLayout = documents[index].layoutResidentBytes
          #expect(
            keptLayout <= 2 * fresh.layoutResidentBytes && fresh.layoutResidentBytes <= 2 * keptLayout,
            "layout kept \(keptLayout), fresh \(fresh.layoutResidentBytes)")
          updates += 1
        }
        state = result.state
      }
    }
    #expect(updates > 500)
  }

  @Test("§6 a document of more items weighs more, and more than its encoded document")
  func weightGrowsWithItems() throws {
    let empty = LayoutDocument(.empty, metrics: LayoutMetrics(width: 400))
    var ops: [Op] = (0..<12).map { .defineBarButtonItem(BarButtonItem(id: "item-\($0)", title: "item \($0)")) }
    ops.append(
      .push(
        NavigationItem(id: "root", title: "Root", rightBarButtonItems: (0..<6).map { "item-\($0)" }), animated: false))
    ops.append(.setToolbarItems((6..<12).map { "item-\($0)" }, animated: false))
    let state = try SceneState.empty.applying(ops).state
    let full = LayoutDocument(state, metrics: LayoutMetrics(width: 400))
    #expect(full.residentBytes > empty.residentBytes)
    #expect(full.residentBytes > JSONWriter.bytes(full.json).count)
  }
}
