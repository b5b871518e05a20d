import NavTestSupport
import Testing

@testable import NavModel

/// A bar button item's content changed while every bar's geometry stands: the
/// document sets it in place and patches only where it is shown
/// (`LayoutPatch.Positions`), which must still be the reference.
@Suite("Layout document: items set in place")
struct LayoutDocumentInPlaceTests {
  @Test(
    "§6 R31 R37 R47 R62 R64 an item's same-width title, enabled flag or tint, placed, overflowed or in both bars, at several widths: the reference, shared between widths of one placement"
  )
  func inPlaceEdits() throws {
    let ids = (0..<14).map { "i\($0)" }
    var ops: [Op] = ids.map { .defineBarButtonItem(BarButtonItem(id: $0, title: "item \($0)")) }
    ops.append(.defineBarButtonItem(BarButtonItem(id: "space", systemItem: .fixedSpace)))
    ops.append(
      .push(
        NavigationItem(
          id: "root", title: "Root", leftBarButtonItems: ["i0", "i1", "space", "i2"],
          rightBarButtonItems: ["i3", "i4", "i5", "i6", "i13"]), animated: false))
    ops.append(.setToolbarItems(["i7", "i8", "space", "i9", "i10", "i11", "i12", "i13"], animated: false))
    var state = try SceneState.empty.applying(ops).state
    // Widths of one placement and of others, compact and not: a width that shares another's
    // patch (`LayoutStep.Sharing`) must have the reference patch too.
    let allMetrics: [LayoutMetrics?] = [
      nil, LayoutMetrics(width: 180), LayoutMetrics(width: 320), LayoutMetrics(width: 768),
      LayoutMetrics(width: 240, compact: true), LayoutMetrics(width: 400), LayoutMetrics(width: 480, compact: true),
      LayoutMetrics(width: 560), LayoutMetrics(width: 1024), LayoutMetrics(width: 1366, compact: true),
    ]
    var documents = allMetrics.map { LayoutDocument(state, metrics: $0) }
    var edits = 0
    var shared = 0
    for round in 0..<3 {
      for id in ids {
        // The same number of characters: the item keeps its width.
        let fields: [BarButtonItemField] =
          switch round {
          case 0: [.title(id == "i13" ? "ITEM \(id)" : "Item \(id)")]
          case 1: [.enabled(false)]
          default: [.tintColor(Color(red: 10, green: 20, blue: 30, alpha: 255))]
          }
        let op = Op.updateBarButtonItem(id, fields)
        let next = try state.applying([op]).state
        shared += try LayoutDocumentTests.expectReferenceUpdate(
          &documents, metrics: allMetrics, from: state, to: next, change: LayoutChange(ops: [op], in: next),
          shared: SharedResolution(), context: "round \(round) \(op)")
        state = next
        edits += 1
      }
    }
    #expect(edits == 42)
    #expect(shared > 42 * 3, "only \(shared) widths took another's patch")
  }
}
