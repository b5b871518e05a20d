import Foundation
import NavEngine
import NavModel
import Synchronization
import Testing

@testable import NavStore

/// The sizes each redo file had at its last fsync, as the store reports them; `freeze` stands
/// for the power going off: fsyncs after it never happened.
final class SyncPoints: Sendable {
  private let sizes = Mutex<(bytes: [String: Int], frozen: Bool)>(([:], false))

  var limitsHook: @Sendable (String, Int) -> Void {
    { [self] path, bytes in sizes.withLock { if !$0.frozen { $0.bytes[path] = bytes } } }
  }

  /// Stops recording and returns the sizes as of now.
  func freeze() -> [String: Int] {
    sizes.withLock { state in
      state.frozen = true
      return state.bytes
    }
  }

  func synced(_ path: String) -> Int { sizes.withLock { $0.bytes[path] ?? 0 } }
}

@Suite("New epochs: a start that cannot prove it kept every acknowledged version (STORAGE.md §4, \"New epochs\")")
struct NewEpochTests {
  @Test("a power loss in normal mode: the writes since the last fsync are gone, and every scene starts a new epoch")
  func powerLoss() async throws {
    let live = TemporaryDirectory()
    let points = SyncPoints()
    var limits = RedoLogLimits(batchNanoseconds: 3_000_000_000, syncNanoseconds: 200_000_000)
    limits.onSync = points.limitsHook
    let store = try SQLiteSceneStore(path: live.database, durability: .normal, redoLimits: limits, bootId: "boot-1")
    try await waitForApplierRest()
    var state = SceneState.empty
    var other = SceneState.empty
    try await store.commit([try record(scene: "other", version: 1, ops: pushOps("o1"), state: &other)])
    for version in UInt64(1)...5 {
      try await store.commit([try record(version: version, ops: pushOps("i\(version)"), state: &state)])
    }
    let log = live.path + "/navd.redo.0000000000000001"
    // Wait for the fsync that covers all six records, then acknowledge three more at once.
    for _ in 0..<100 where points.synced(log) < fileSize(log) { try await Task.sleep(for: .milliseconds(20)) }
    #expect(points.synced(log) == fileSize(log))
    let syncedSize = fileSize(log)
    for version in UInt64(6)...8 {
      try await store.commit([try record(version: version, ops: pushOps("i\(version)"), state: &state)])
    }
    let synced = points.freeze()
    #expect(synced[log] == syncedSize, "an fsync ran before the power went off: the test's window missed")
    #expect(store.transactions == 0, "the applier wrote the records: nothing would be lost")
    let copy = TemporaryDirectory()
    try copyStateFiles(from: live.path, to: copy.path, syncedBytes: synced)

    let rebooted = try SQLiteSceneStore(
      path: copy.database, durability: .normal, redoLimits: RedoLogLimits(), bootId: "boot-2")
    defer { rebooted.close() }
    #expect(rebooted.newEpochReasons.count == 1)
    #expect(rebooted.newEpochReasons.first?.contains("did not stop before the machine restarted") == true)
    let scenes = try rebooted.load()
    #expect(scenes.map(\.name) == ["main", "other"])
    #expect(scenes.map(\.version) == [5, 1], "versions 6…8 were acknowledged but never fsynced")
    #expect(scenes.allSatisfy { $0.epoch != "e1" && $0.epoch.count == 16 })
    #expect(rebooted.newEpochs.map(\.scene) == ["main", "other"])
    #expect(rebooted.newEpochs.allSatisfy { $0.from == "e1" })
    await closeOffPool(store)
  }

  @Test("a crash of navd alone (the same boot) keeps every version: the epoch stays")
  func crashKeepsEpoch() async throws {
    let (store, copy, _) = try await crashCopy(groups: 4)
    let reopened = try SQLiteSceneStore(path: copy.database, durability: .normal)
    defer { reopened.close() }
    #expect(reopened.newEpochReasons == [])
    let stored = try #require(try reopened.load().first)
    #expect(stored.version == 4)
    #expect(stored.epoch == "e1")
    await closeOffPool(store)
  }

  @Test("a clean stop, then a reboot: nothing was unsynced, the epoch stays")
  func cleanStopKeepsEpoch() async throws {
    let directory = TemporaryDirectory()
    var state = SceneState.empty
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal, redoLimits: RedoLogLimits(), bootId: "boot-1")
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state)])
    await closeOffPool(store)
    let rebooted = try SQLiteSceneStore(
      path: directory.database, durability: .normal, redoLimits: RedoLogLimits(), bootId: "boot-2")
    defer { rebooted.close() }
    #expect(rebooted.newEpochReasons == [])
    #expect(try rebooted.load().first?.epoch == "e1")
  }

  @Test("full durability, then a reboot without a clean stop: every commit was fsynced, the epoch stays")
  func fullKeepsEpoch() async throws {
    let live = TemporaryDirectory()
    var state = SceneState.empty
    let store = try SQLiteSceneStore(
      path: live.database, durability: .full, redoLimits: RedoLogLimits(), bootId: "boot-1")
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state)])
    let copy = TemporaryDirectory()
    try copyStateFiles(from: live.path, to: copy.path)
    let rebooted = try SQLiteSceneStore(
      path: copy.database, durability: .full, redoLimits: RedoLogLimits(), bootId: "boot-2")
    defer { rebooted.close() }
    #expect(rebooted.newEpochReasons == [])
    #expect(try rebooted.load().first?.epoch == "e1")
    await closeOffPool(store)
  }

  @Test("a dropped redo tail: the kept versions go on under a new epoch, and the reason names the drop")
  func droppedTail() async throws {
    let (store, copy, _) = try await crashCopy(groups: 6)
    let log = copy.path + "/navd.redo.0000000000000002"
    #expect(truncate(log, off_t(fileSize(log) - 3)) == 0)
    let reopened = try SQLiteSceneStore(path: copy.database, durability: .normal)
    defer { reopened.close() }
    #expect(reopened.newEpochReasons.first?.contains("the redo log ends in \(log)") == true)
    let stored = try #require(try reopened.load().first)
    #expect(stored.version == 5)
    #expect(stored.epoch != "e1")
    await closeOffPool(store)
  }

  @Test("a restored copy of the database (another inode): a new epoch")
  func restoredCopy() async throws {
    let live = TemporaryDirectory()
    var state = SceneState.empty
    let store = try SQLiteSceneStore(path: live.database, durability: .normal)
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state)])
    await closeOffPool(store)
    let copy = TemporaryDirectory()
    try copyStateFiles(from: live.path, to: copy.path, asRestored: true)
    let restored = try SQLiteSceneStore(path: copy.database, durability: .normal)
    defer { restored.close() }
    #expect(restored.newEpochReasons.first?.contains("not the file navd last ran on") == true)
    let stored = try #require(try restored.load().first)
    #expect(stored.version == 1)
    #expect(stored.epoch != "e1")
  }

  @Test("an import gives each imported scene a new epoch; its version goes on")
  func importRenews() throws {
    let directory = TemporaryDirectory()
    let archive = SceneArchive(scenes: [.init(name: "main", epoch: "e1", version: 7, state: .empty)])
    try archive.importInto(databaseAt: directory.database)
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal)
    defer { store.close() }
    #expect(store.newEpochReasons == [], "the import's record of the run names the file")
    let stored = try #require(try store.load().first)
    #expect(stored.version == 7)
    #expect(stored.epoch != "e1")
  }
}
