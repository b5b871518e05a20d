import Testing

@testable import NavModel

/// `SceneState.replay` applies ops that applied cleanly before (the op log's floor and its
/// rebuilt versions): their values were checked then, and are not checked on every replay.
@Suite("Replay trusts what applying checked")
struct ReplayTrustTests {
  @Test("R66 ops applied under wider limits replay to the same state, though they exceed the default ones")
  func replayDoesNotCheckAgain() throws {
    var wide = ModelLimits()
    wide.stringMaxBytes = 4096
    wide.possibleTitles = 64
    let longTitle = String(repeating: "t", count: 1000)
    let ops: [Op] = [
      .defineBarButtonItem(
        BarButtonItem(id: "share", title: longTitle, possibleTitles: (0..<40).map { "title \($0)" })),
      .push(NavigationItem(id: "top", title: longTitle, rightBarButtonItems: ["share"]), animated: false),
    ]
    #expect(throws: NavError.self) { try SceneState.empty.applying(ops) }
    let applied = try SceneState.empty.applying(ops, limits: wide)
    var replayed = SceneState.empty
    try replayed.replay(ops)
    #expect(replayed == applied.state)
  }
}
