import Foundation
import NavEngine
import NavModel
import Testing

@testable import NavStore

/// Opens a store on `directory` expecting a refusal, and checks that no file changed.
func expectRefusal(_ directory: TemporaryDirectory, _ pieces: [String]) throws {
  let before = try directoryContents(directory.path)
  let error = #expect(throws: StoreError.self) { try SQLiteSceneStore(path: directory.database, durability: .normal) }
  #expect(error?.kind == .corrupt)
  for piece in pieces { #expect(error?.message.contains(piece) == true, "\(error?.message ?? "")") }
  let after = try directoryContents(directory.path)
  #expect(after.keys.sorted() == before.keys.sorted(), "files were made or removed")
  for (name, bytes) in before { #expect(after[name] == bytes, "\(name) changed") }
}

/// A store with versions 2…`groups` in its redo log only, and a copy of its files as a kill -9
/// of navd leaves them (the live directory goes when the store does).
func crashCopy(groups: UInt64) async throws -> (
  store: SQLiteSceneStore, copy: TemporaryDirectory, live: TemporaryDirectory
) {
  let live = TemporaryDirectory()
  var state = SceneState.empty
  let store = try await storeWithUnappliedGroups(in: live, count: groups, state: &state)
  let copy = TemporaryDirectory()
  try copyStateFiles(from: live.path, to: copy.path)
  return (store, copy, live)
}

@Suite("Consistency checks at start-up: refused before any file changes (STORAGE.md §4, \"Consistency checks\")")
struct StartupChecksTests {
  @Test("a snapshot_version ahead of its log")
  func snapshotAheadOfLog() async throws {
    let directory = TemporaryDirectory()
    var state = SceneState.empty
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal)
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state, snapshot: true)])
    try await store.commit([try record(version: 2, ops: pushOps("b"), state: &state)])
    try await store.commit([try record(version: 3, ops: pushOps("c"), state: &state)])
    await closeOffPool(store)
    try runSQL("UPDATE scenes SET snapshot_version = 2", at: directory.database)
    try expectRefusal(
      directory, ["scene \"main\" has its snapshot at version 2 but its log still holds version 2", "navctl export"])
  }

  @Test("a redo_applied past records the database does not hold")
  func redoAppliedAhead() async throws {
    let (store, copy, _) = try await crashCopy(groups: 5)
    try runSQL("UPDATE redo_applied SET sequence = 3", at: copy.database)
    try expectRefusal(copy, ["record 3 made scene \"main\" version 3", "redo_applied is damaged"])
    await closeOffPool(store)
  }

  @Test("a redo_applied past the end of the log")
  func redoAppliedPastEnd() async throws {
    let (store, copy, _) = try await crashCopy(groups: 3)
    try runSQL("UPDATE redo_applied SET sequence = 40", at: copy.database)
    try expectRefusal(copy, ["through record 40", "the log ends at record 3"])
    await closeOffPool(store)
  }

  @Test("a garbage redo file that sorts first")
  func garbageFileFirst() async throws {
    let (store, copy, _) = try await crashCopy(groups: 3)
    #expect(
      FileManager.default.createFile(
        atPath: copy.path + "/navd.redo.0000000000000000", contents: Data(repeating: 0x41, count: 100)))
    try expectRefusal(copy, ["navd.redo.0000000000000000 at byte 0", "before its end"])
    await closeOffPool(store)
  }

  @Test("a redo file whose records are not the ones its name says, and a stray name")
  func strayFiles() async throws {
    let (store, copy, _) = try await crashCopy(groups: 3)
    let bytes = try #require(FileManager.default.contents(atPath: copy.path + "/navd.redo.0000000000000002"))
    #expect(FileManager.default.createFile(atPath: copy.path + "/navd.redo.0000000000000009", contents: bytes))
    try expectRefusal(copy, ["navd.redo.0000000000000009 starts with record 2"])
    // Export reads what it can, and says where it stopped.
    let exported = try SceneArchive.export(databaseAt: copy.database)
    #expect(exported.archive.scenes.first?.version == 3)
    #expect(exported.problems.first?.contains("navd.redo.0000000000000009 starts with record 2") == true)
    try FileManager.default.removeItem(atPath: copy.path + "/navd.redo.0000000000000009")
    #expect(FileManager.default.createFile(atPath: copy.path + "/navd.redo.old", contents: bytes))
    try expectRefusal(copy, ["navd.redo.old: not a file of navd's redo log"])
    await closeOffPool(store)
  }

  @Test("a missing navd.db beside a surviving WAL and redo log; an empty navd.db")
  func orphans() async throws {
    let (store, copy, _) = try await crashCopy(groups: 3)
    try FileManager.default.removeItem(atPath: copy.database)
    try expectRefusal(copy, ["navd.db is missing, but", "navd.redo.0000000000000002", "restore"])
    #expect(FileManager.default.createFile(atPath: copy.database, contents: Data()))
    try expectRefusal(copy, ["navd.db is empty (0 bytes)"])
    await closeOffPool(store)
    // Emptied after a run on it (its record of the run survives).
    let emptied = TemporaryDirectory()
    try SQLiteSceneStore(path: emptied.database).close()
    #expect(FileManager.default.createFile(atPath: emptied.database, contents: Data()))
    try expectRefusal(emptied, ["navd.db is empty (0 bytes)", "navd.run", "restore"])
  }
}

@Suite("Recovery keeps what is intact: a damaged side table costs only its entries")
struct SideTableTests {
  @Test(
    "one damaged remembered mutation id: export keeps every scene, start-up loads every scene and says what it left out"
  )
  func damagedMutationId() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal)
    for name in ["alpha", "beta", "gamma"] {
      var state = SceneState.empty
      try await store.commit([try record(scene: name, version: 1, ops: pushOps("a"), state: &state, mutationId: "m1")])
      try await store.commit([try record(scene: name, version: 2, ops: pushOps("b"), state: &state, mutationId: "m2")])
    }
    await closeOffPool(store)
    // One byte of one id's outcome flipped.
    try runSQL(
      "UPDATE mutation_ids SET outcome = 'X' || substr(outcome, 2) WHERE scene = 'beta' AND mutation_id = 'm2'",
      at: directory.database)

    let exported = try SceneArchive.export(databaseAt: directory.database)
    #expect(exported.archive.scenes.map(\.name) == ["alpha", "beta", "gamma"])
    #expect(exported.archive.scenes.map(\.version) == [2, 2, 2])
    #expect(exported.problems.count == 1)
    #expect(exported.problems.first?.contains("scene \"beta\": the remembered mutation id \"m2\"") == true)

    let reopened = try SQLiteSceneStore(path: directory.database, durability: .normal)
    defer { reopened.close() }
    let scenes = try reopened.load()
    #expect(scenes.map(\.name) == ["alpha", "beta", "gamma"])
    #expect(scenes.map { $0.mutationIds.map(\.mutationId) } == [["m1", "m2"], ["m1"], ["m1", "m2"]])
    #expect(reopened.sideTableProblems.count == 1)
  }
}
