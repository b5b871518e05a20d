import Foundation
import NavEngine
import NavModel
import Testing

@testable import NavStore

/// A scene's deletion in the store (`CommitRecord.deletion`, STORAGE.md §3): its row, log and
/// remembered ids go in the same order as the commits around it, in each durability, and
/// through a replay of the redo log at start-up.
@Suite("Deleting a scene in the store")
struct DeletionTests {
  /// Rows of `table` that belong to `scene` (`column` names the scene).
  static func rows(_ table: String, _ column: String, scene: String, at path: String) throws -> Int64 {
    let database = try SQLiteDatabase(path: path, readOnly: true)
    return try database.integer("SELECT count(*) FROM \(table) WHERE \(column) = '\(scene)'")
  }

  @Test(
    "Deleted, then written again in a new epoch: a restart finds the new history only", arguments: Durability.allCases)
  func deletionIsDurable(durability: Durability) async throws {
    let directory = TemporaryDirectory()
    do {
      let store = try SQLiteSceneStore(path: directory.database, durability: durability)
      var old = SceneState.empty
      try await store.commit([
        try record(scene: "mail", version: 1, ops: pushOps("a"), state: &old, mutationId: "m1", snapshot: true)
      ])
      try await store.commit([try record(scene: "mail", version: 2, ops: pushOps("b"), state: &old)])
      try await store.commit([.deletion(of: "mail")])
      let atOnce = try store.commitAtOnce([.deletion(of: "never-stored")])
      #expect(atOnce == (durability == .normal), "a deletion of a scene the store never held changes nothing")
      var new = SceneState.empty
      try await store.commit([
        try record(scene: "mail", epoch: "e2", version: 1, ops: pushOps("z"), state: &new, snapshot: true)
      ])
      await closeOffPool(store)
    }
    let reopened = try SQLiteSceneStore(path: directory.database, durability: durability)
    let scenes = try reopened.load()
    #expect(scenes.map(\.name) == ["mail"])
    #expect(scenes.first?.epoch == "e2" && scenes.first?.version == 1)
    #expect(scenes.first?.mutationIds.isEmpty == true, "the old history's ids went with it")
    #expect(try Self.rows("log", "scene", scene: "mail", at: directory.database) == 0)
    await closeOffPool(reopened)
  }

  @Test("A deletion still in the redo log when navd crashed is replayed at start-up, after what came before it")
  func replayedDeletion() async throws {
    let live = TemporaryDirectory()
    let limits = RedoLogLimits(batchNanoseconds: 3_000_000_000, syncNanoseconds: 200_000_000)
    let store = try SQLiteSceneStore(path: live.database, durability: .normal, redoLimits: limits, bootId: "boot-1")
    try await waitForApplierRest()
    var state = SceneState.empty
    var other = SceneState.empty
    try await store.commit([try record(scene: "other", version: 1, ops: pushOps("o"), state: &other, snapshot: true)])
    try await store.commit([try record(scene: "mail", version: 1, ops: pushOps("a"), state: &state, snapshot: true)])
    try await store.commit([.deletion(of: "mail")])
    #expect(store.transactions == 0, "the applier wrote the records: the replay would not be tested")
    let copy = TemporaryDirectory()
    try copyStateFiles(from: live.path, to: copy.path)
    let restarted = try SQLiteSceneStore(
      path: copy.database, durability: .normal, redoLimits: RedoLogLimits(), bootId: "boot-1")
    #expect(try restarted.load().map(\.name) == ["other"])
    await closeOffPool(restarted)
    await closeOffPool(store)
  }
}
