import Foundation
import NavEngine
import NavModel
import Testing

@testable import NavStore

@Suite("The redo log's readers: export, import and a start with --durability full (STORAGE.md §4, §5)")
struct RedoLogReadersTests {
  @Test("export while navd runs with records not yet applied shows the newest version and changes nothing")
  func exportWhileOpen() async throws {
    let directory = TemporaryDirectory()
    var state = SceneState.empty
    let store = try await slowStore(at: directory.database, state: &state)
    try await store.commit([try record(version: 2, ops: pushOps("b"), state: &state)])
    try await store.commit([try record(version: 3, ops: pushOps("c"), state: &state)])
    let exported = try SceneArchive.export(databaseAt: directory.database)
    #expect(store.transactions == 0, "the applier wrote versions 2 and 3 already: the export would not need the log")
    #expect(exported.problems.isEmpty)
    #expect(exported.archive.scenes == [SceneArchive.Scene(name: "main", epoch: "e1", version: 3, state: state)])
    #expect(try redoApplied(directory.database) == 1)
    #expect(try redoRecords(in: directory.path).map(\.sequence) == [2, 3])
    await closeOffPool(store)
  }

  @Test("export of a state directory a killed navd left (navd not running) has the log's groups and changes no file")
  func exportAfterKill() async throws {
    let live = TemporaryDirectory()
    var state = SceneState.empty
    let store = try await storeWithUnappliedGroups(in: live, count: 4, state: &state)
    let copy = TemporaryDirectory()
    try copyStateFiles(from: live.path, to: copy.path)
    #expect(store.transactions == 0, "the applier wrote before the copy: the copy would not need the log")
    let names = try FileManager.default.contentsOfDirectory(atPath: copy.path).sorted()
    let before = names.map { FileManager.default.contents(atPath: copy.path + "/" + $0) }

    let exported = try SceneArchive.export(databaseAt: copy.database, only: "main")
    #expect(exported.problems.isEmpty)
    #expect(exported.archive.scenes == [SceneArchive.Scene(name: "main", epoch: "e1", version: 4, state: state)])
    #expect(try FileManager.default.contentsOfDirectory(atPath: copy.path).sorted() == names)
    #expect(names.map { FileManager.default.contents(atPath: copy.path + "/" + $0) } == before)
    await closeOffPool(store)
  }

  @Test("export of a directory whose redo log does not continue the database exports the database and names the hole")
  func exportWithHole() async throws {
    let live = TemporaryDirectory()
    var state = SceneState.empty
    let store = try await storeWithUnappliedGroups(in: live, count: 4, state: &state)
    let copy = TemporaryDirectory()
    try copyStateFiles(from: live.path, to: copy.path)
    await closeOffPool(store)
    let applied = try redoApplied(copy.database)
    #expect(applied >= 1)
    // As if a crash of the machine had lost the records right after the database's position.
    try runSQL("UPDATE redo_applied SET sequence = \(applied - 1)", at: copy.database)
    let exported = try SceneArchive.export(databaseAt: copy.database)
    #expect(exported.problems.count == 1)
    #expect(exported.problems.first?.contains("record \(applied + 1) where \(applied) was due") == true)
    #expect(exported.archive.scenes.map(\.version) == [applied])
  }

  @Test("import into a state directory with a leftover redo log applies the log first, then the archive")
  func importAppliesLogFirst() async throws {
    let live = TemporaryDirectory()
    var state = SceneState.empty
    let store = try await storeWithUnappliedGroups(in: live, count: 5, state: &state)
    let beside = TemporaryDirectory()
    let replacing = TemporaryDirectory()
    try copyStateFiles(from: live.path, to: beside.path)
    try copyStateFiles(from: live.path, to: replacing.path)
    #expect(store.transactions == 0, "the applier wrote before the copy: the copy would not need the log")
    let other = try SceneState.empty.applying(pushOps("o")).state

    try SceneArchive(scenes: [SceneArchive.Scene(name: "other", epoch: "x", version: 4, state: other)])
      .importInto(databaseAt: beside.database)
    #expect(try redoFileNames(in: beside.path) == [])
    let besideStore = try SQLiteSceneStore(path: beside.database, durability: .normal)
    defer { besideStore.close() }
    let scenes = try besideStore.load()
    #expect(scenes.map(\.name) == ["main", "other"])
    #expect(scenes.map(\.version) == [5, 4])
    #expect(scenes.first?.replayed().state == state)

    // The archive's "main" wins over the log's: applied after it, not under it.
    try SceneArchive(scenes: [SceneArchive.Scene(name: "main", epoch: "imported", version: 2, state: other)])
      .importInto(databaseAt: replacing.database)
    let replacingStore = try SQLiteSceneStore(path: replacing.database, durability: .normal)
    defer { replacingStore.close() }
    let main = try #require(try replacingStore.load().first)
    #expect(main.epoch != "imported" && main.epoch != "e1", "an import starts a new epoch")
    #expect(main.version == 2)
    #expect(main.replayed().state == other)
    await closeOffPool(store)
  }

  @Test("--durability full replays a log left by a normal run, makes none of its own, and commits")
  func fullAfterNormal() async throws {
    let live = TemporaryDirectory()
    var state = SceneState.empty
    let store = try await storeWithUnappliedGroups(in: live, count: 4, state: &state)
    let copy = TemporaryDirectory()
    try copyStateFiles(from: live.path, to: copy.path)
    #expect(store.transactions == 0, "the applier wrote before the copy: the copy would not need the log")

    let full = try SQLiteSceneStore(path: copy.database, durability: .full)
    #expect(try redoFileNames(in: copy.path) == [])
    #expect(try full.load().first?.version == 4)
    try await full.commit([try record(version: 5, ops: pushOps("e"), state: &state, mutationId: "m5")])
    #expect(try redoFileNames(in: copy.path) == [])
    full.close()
    let reopened = try SQLiteSceneStore(path: copy.database, durability: .full)
    defer { reopened.close() }
    let stored = try #require(try reopened.load().first)
    #expect(stored.version == 5)
    #expect(stored.replayed().state == state)
    #expect(stored.mutationIds.map(\.mutationId) == ["m1", "m2", "m3", "m4", "m5"])
    await closeOffPool(store)
  }
}
