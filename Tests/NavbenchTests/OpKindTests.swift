import NavModel
import Testing

@testable import navbench

@Suite("navbench op kinds: every kind's Mutate applies to its scene, from any sequence number")
struct OpKindTests {
  static func scene() throws -> SceneState {
    try SceneState.empty.applying(try Op.list(json: try JSONParser.parse(OpKind.setupOps))).state
  }

  static func ops(_ kind: OpKind, _ sequence: Int) throws -> [Op] {
    let parameters = try JSONParser.parse(kind.parameters(channel: "c", sequence: sequence, bytes: 200))
    #expect(parameters["scene"]?.stringValue == "c")
    return try Op.list(json: parameters["ops"] ?? .null)
  }

  @Test("the scene has three screens, bar button items on both sides of the top one and ten toolbar items")
  func sceneShape() throws {
    let state = try Self.scene()
    #expect(state.navigationBar.items.map(\.id) == ["inbox", "thread", "top"])
    #expect(state.navigationBar.topItem?.leftBarButtonItems == ["edit", "add"])
    #expect(state.navigationBar.topItem?.rightBarButtonItems == ["done", "share"])
    #expect(state.navigationBar.backItem?.backBarButtonItem == "back")
    #expect(state.toolbar.items.count == 10)
  }

  @Test(
    "each kind's mutation changes the layout at 768 every time (after the first, starting at an odd number)",
    arguments: OpKind.allCases)
  func changesTheLayout(kind: OpKind) throws {
    for first in [0, 7] {
      var state = try Self.scene()
      var document = LayoutDocument(state, metrics: LayoutMetrics(width: Double(OpKind.width)))
      for sequence in first..<first + 6 {
        let ops = try Self.ops(kind, sequence)
        state = try state.applying(ops).state
        let patch = document.update(to: state, change: LayoutChange(ops: ops, in: state))
        // A kind that alternates by parity may find its odd state already there.
        if first == 0 || sequence > first {
          #expect(!patch.isEmpty, "\(kind) at \(sequence) changed nothing in the layout")
        }
      }
    }
  }

  @Test(
    "a pipelined writer's cycle restarts the sequence: every kind applies after any earlier sequence",
    arguments: OpKind.allCases)
  func repeats(kind: OpKind) throws {
    var state = try Self.scene()
    for sequence in [3, 3, 0, 1023, 0, 2, 2] {
      state = try state.applying(try Self.ops(kind, sequence)).state
    }
    #expect(state.navigationBar.items.count == 3)
  }

  @Test("kinds with a text are padded to the requested size, as the title payload is")
  func padded() {
    for kind in OpKind.allCases where kind.hasText {
      #expect(kind.parameters(channel: "c", sequence: 12, bytes: 800).count == 800, "\(kind)")
    }
  }
}
