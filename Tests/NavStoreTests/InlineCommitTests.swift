import CSQLite
import Foundation
import NavEngine
import NavModel
import Testing

@testable import NavStore

/// STORAGE.md §2: with `--durability normal` a group is written on the caller's thread, one
/// transaction per group, and the WAL is checkpointed off that thread and stays bounded.
@Suite("Inline commits (durability normal)")
struct InlineCommitTests {
  @Test("each group is one transaction, written before commit returns (no store thread involved)")
  func oneTransactionPerGroup() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal)
    defer { store.close() }
    var main = SceneState.empty
    var other = SceneState.empty
    try await store.commit([
      try record(version: 1, ops: pushOps("a"), state: &main),
      try record(version: 2, ops: pushOps("b"), state: &main),
      try record(scene: "x", version: 1, ops: pushOps("x"), state: &other),
    ])
    #expect(store.transactions == 1)
    #expect(store.groupCounts == (0, 0))
    #expect(try store.load().map(\.version) == [2, 1])
    try await store.commit([try record(version: 3, ops: pushOps("c"), state: &main)])
    #expect(store.transactions == 2)
  }

  @Test("a failing group stores none of its records, and the next group commits")
  func failedGroupChangesNothing() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal)
    defer { store.close() }
    var state = SceneState.empty
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state)])
    var attempt = state
    // The second record reuses version 1: the transaction fails after the first record was written.
    await #expect(throws: StoreError.self) {
      try await store.commit([
        try record(scene: "new", version: 1, ops: pushOps("n"), state: &attempt),
        try record(version: 1, ops: pushOps("b"), state: &attempt),
      ])
    }
    #expect(try store.load().map(\.name) == ["main"])
    #expect(store.transactions == 1)
    try await store.commit([try record(version: 2, ops: pushOps("b"), state: &state)])
    #expect(try store.load().first?.version == 2)
  }

  @Test("a group of one plain log row is one statement (no BEGIN/COMMIT): stored whole, or refused changing nothing")
  func oneRowGroup() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal)
    defer { store.close() }
    var scene = SceneState.empty
    // The scene's first group adopts its epoch (several statements); the next ones are one row each.
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &scene)])
    try await store.commit([try record(version: 2, ops: pushOps("b"), state: &scene)])
    var attempt = scene
    await #expect(throws: StoreError.self) {
      try await store.commit([try record(version: 2, ops: pushOps("again"), state: &attempt)])
    }
    #expect(store.transactions == 2)
    try await store.commit([try record(version: 3, ops: pushOps("c"), state: &scene)])
    let stored = try #require(try store.load().first)
    #expect(stored.version == 3)
    #expect(state(of: stored) == scene)
    #expect(stored.log.map(\.version) == [1, 2, 3])
  }

  @Test("the WAL is checkpointed off the writer's thread and stays bounded (CheckpointLimits)")
  func walStaysBounded() async throws {
    let directory = TemporaryDirectory()
    let limits = CheckpointLimits(passivePages: 64, truncatePages: 256)
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal, checkpoints: limits)
    defer { store.close() }
    var state = SceneState.empty
    var version: UInt64 = 0
    var written = 0
    // ~2 KB of ops per commit: well past 10x the truncate limit in total.
    while written < 10 * limits.truncatePages * 4096 {
      version += 1
      let ops =
        state.navigationBar.items.count >= 40 ? [Op.setStack([], animated: false)] : eightItems(version)
      try await store.commit([try record(version: version, ops: ops, state: &state, snapshot: version % 100 == 0)])
      written += 2000
    }
    let wal = directory.database + "-wal"
    let bound = 2 * limits.truncatePages * 4096
    let deadline = ContinuousClock.now + .seconds(10)
    while fileSize(wal) > bound || store.checkpoints.reset == 0, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(store.checkpoints.passive > 0)
    #expect(store.checkpoints.reset > 0)
    #expect(fileSize(wal) <= bound, "the WAL is \(fileSize(wal)) bytes after \(written) bytes of ops")
    #expect(try store.load().first?.version == version)
  }

  @Test(
    "after a PASSIVE checkpoint: RESTART when it caught up, TRUNCATE past the limit, else nothing (STORAGE.md §2)",
    arguments: [
      (100, 100, SQLITE_CHECKPOINT_RESTART), (0, 0, SQLITE_CHECKPOINT_RESTART), (100, 99, nil),
      (256, 256, SQLITE_CHECKPOINT_TRUNCATE), (300, 12, SQLITE_CHECKPOINT_TRUNCATE), (255, 254, nil),
    ] as [(Int, Int, Int32?)])
  func resetAfterPassive(walFrames: Int, copied: Int, reset: Int32?) {
    let limits = CheckpointLimits(passivePages: 64, truncatePages: 256)
    #expect(Checkpointer.reset(walFrames: walFrames, copied: copied, limits: limits) == reset)
  }

  @Test("the writer's connection never checkpoints on its own (wal_autocheckpoint = 0)")
  func writerDoesNotCheckpoint() async throws {
    let directory = TemporaryDirectory()
    // Limits no WAL in this test reaches: only the writer could checkpoint, and it must not.
    let limits = CheckpointLimits(passivePages: 1_000_000, truncatePages: 1_000_000)
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal, checkpoints: limits)
    defer { store.close() }
    var state = SceneState.empty
    var version: UInt64 = 0
    for _ in 0..<800 {
      version += 1
      let ops =
        state.navigationBar.items.count >= 40 ? [Op.setStack([], animated: false)] : eightItems(version)
      try await store.commit([try record(version: version, ops: ops, state: &state)])
    }
    // SQLite's default would have checkpointed and restarted the WAL at 1000 pages (~4 MiB).
    #expect(fileSize(directory.database + "-wal") > 1000 * 4096)
    #expect(store.checkpoints == (0, 0))
  }
}

/// Eight pushed items of ~250 bytes each (~2 KB of ops; titles stay under the 256-byte limit).
private func eightItems(_ version: UInt64) -> [Op] {
  (0..<8).map {
    Op.push(NavigationItem(id: "i\(version)-\($0)", title: String(repeating: "t", count: 240)), animated: false)
  }
}
