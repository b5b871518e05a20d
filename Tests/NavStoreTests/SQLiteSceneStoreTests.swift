import Foundation
import NavEngine
import NavModel
import Testing

@testable import NavStore

@Suite("SQLiteSceneStore: records in, StoredScene out")
struct SQLiteSceneStoreTests {
  @Test("round trip: log rows, mutation ids and outcomes come back as committed, per scene, after a reopen")
  func roundTrip() async throws {
    let directory = TemporaryDirectory()
    var main = SceneState.empty
    var side = SceneState.empty
    let overwrite = try MutationOutcome(
      storedJSON: [
        "version": 2, "baseVersionExpired": true,
        "overwritten": [
          [
            "target": ["navigationItem", "a"], "field": "title", "previousValue": "A", "writtenAt": 1,
            "writtenBy": "other",
          ]
        ],
      ])
    let first = try record(version: 1, ops: pushOps("a"), state: &main, client: "alice", mutationId: "m1")
    let other = try record(scene: "side", epoch: "e9", version: 1, ops: pushOps("s"), state: &side)
    var second = try record(version: 2, ops: pushOps("b"), state: &main, mutationId: "m2")
    second.outcome = overwrite
    let records = [first, other, second]
    do {
      let store = try SQLiteSceneStore(path: directory.database, durability: .full)
      try await store.commit(records)
      store.close()
    }
    let store = try SQLiteSceneStore(path: directory.database, durability: .full)
    let scenes = try store.load()
    #expect(scenes.map(\.name) == ["main", "side"])
    let stored = scenes[0]
    #expect(stored.epoch == "e1")
    #expect(stored.snapshotVersion == 0)
    #expect(stored.version == 2)
    #expect(stored.log.map(\.version) == [1, 2])
    #expect(stored.log.map(\.client) == ["alice", "c"])
    #expect(stored.log.map(\.mutationId) == ["m1", "m2"])
    #expect(stored.log[1].ops == pushOps("b"))
    #expect(stored.mutationIds.map(\.mutationId) == ["m1", "m2"])
    #expect(stored.mutationIds[1].opsDigest == UInt64.max - 2)
    #expect(stored.mutationIds[1].outcome == overwrite)
    #expect(state(of: stored) == main)
    #expect(scenes[1].epoch == "e9")
    #expect(state(of: scenes[1]) == side)
  }

  @Test("a snapshot replaces the log at or below it; forgetMutationIdsThrough drops old ids")
  func snapshotTrimsLog() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .full)
    var state = SceneState.empty
    for version in UInt64(1)...5 {
      try await store.commit([
        try record(
          version: version, ops: pushOps("i\(version)"), state: &state, mutationId: "m\(version)",
          snapshot: version == 3, forgetThrough: version == 4 ? 2 : 0)
      ])
    }
    let stored = try #require(try store.load().first)
    #expect(stored.snapshotVersion == 3)
    #expect(stored.snapshot.navigationBar.items.map(\.id) == ["i1", "i2", "i3"])
    #expect(stored.log.map(\.version) == [4, 5])
    #expect(stored.mutationIds.map(\.mutationId) == ["m3", "m4", "m5"])
    #expect(stored.version == 5)
    #expect(SceneReaderCount.logRows(directory.database) == 2)
  }

  @Test("a new epoch is a new history: the old log, snapshot and ids go")
  func newEpochResets() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .full)
    var old = SceneState.empty
    try await store.commit([try record(version: 1, ops: pushOps("old"), state: &old, mutationId: "m")])
    var fresh = SceneState.empty
    try await store.commit([try record(epoch: "e2", version: 1, ops: pushOps("new"), state: &fresh)])
    let stored = try #require(try store.load().first)
    #expect(stored.epoch == "e2")
    #expect(stored.mutationIds.isEmpty)
    #expect(state(of: stored) == fresh)
  }

  @Test("group commit: concurrent scenes' commits all land, each acknowledged only once stored")
  func concurrentScenes() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for scene in 0..<8 {
        group.addTask {
          var state = SceneState.empty
          for version in UInt64(1)...20 {
            let ops: [Op] = [.updateNavigationItem("root", [.title("v\(version)")], animated: false)]
            let first = version == 1 ? pushOps("root") : []
            try await store.commit([
              try record(scene: "s\(scene)", version: version, ops: first + ops, state: &state)
            ])
          }
        }
      }
      try await group.waitForAll()
    }
    let scenes = try store.load()
    #expect(scenes.count == 8)
    #expect(scenes.allSatisfy { $0.version == 20 && state(of: $0).navigationBar.items.first?.title == "v20" })
  }

  @Test("a version stored twice is refused and changes nothing")
  func versionReuseRefused() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .full)
    var state = SceneState.empty
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state)])
    var other = SceneState.empty
    await #expect(throws: StoreError.self) {
      try await store.commit([
        try record(scene: "x", version: 1, ops: pushOps("x"), state: &other),
        try record(version: 1, ops: pushOps("b"), state: &other),
      ])
    }
    #expect(try store.load().map(\.name) == ["main"])
  }

  @Test("after close, a commit fails with a message instead of hanging")
  func commitAfterClose() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .full)
    store.close()
    var state = SceneState.empty
    let error = await #expect(throws: StoreError.self) {
      try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state)])
    }
    #expect(error?.message.contains("closed") == true)
  }

  @Test("the file does not grow without bound: trimmed log pages are returned (auto_vacuum=INCREMENTAL)")
  func fileStaysBounded() async throws {
    let directory = TemporaryDirectory()
    var state = SceneState.empty
    var version: UInt64 = 0
    /// Pushes ~13 KB of items, clears them, again; a snapshot every 50 versions trims the log.
    func churn(_ commits: Int) async throws {
      let store = try SQLiteSceneStore(path: directory.database, durability: .normal)
      defer { store.close() }
      for _ in 0..<commits {
        version += 1
        let ops =
          state.navigationBar.items.count >= 60
          ? [Op.setStack([], animated: false)] : pushOps("i\(version)", bytes: 200)
        try await store.commit([try record(version: version, ops: ops, state: &state, snapshot: version % 50 == 0)])
      }
    }
    try await churn(200)
    let early = fileSize(directory.database)
    try await churn(1000)
    let late = fileSize(directory.database)
    #expect(late <= early * 2, "the database grew from \(early) to \(late) bytes over 5x more commits")
    #expect(SceneReaderCount.logRows(directory.database) < 50)
  }
}

func fileSize(_ path: String) -> Int {
  ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1
}

/// Counts rows the way another program would, to see what the store deleted.
enum SceneReaderCount {
  static func logRows(_ path: String) -> Int {
    guard let database = try? SQLiteDatabase(path: path, readOnly: true),
      let count = try? database.integer("SELECT count(*) FROM log")
    else { return -1 }
    return Int(count)
  }
}

@Suite("Group commit")
struct GroupCommitTests {
  @Test("groups queued while a transaction is under way, from every scene, commit together in the next one")
  func queuedGroupsShareOneTransaction() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .full)
    // Another connection holds the write lock: the store thread's first transaction waits for it.
    let blocker = try SQLiteDatabase(path: directory.database)
    try blocker.execute("BEGIN IMMEDIATE")
    let scenes = (0..<5).map { "g\($0)" }
    func waitFor(_ condition: ((pending: Int, taken: Int)) -> Bool) async {
      let deadline = ContinuousClock.now + .seconds(4)
      while !condition(store.groupCounts), ContinuousClock.now < deadline { await Task.yield() }
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, scene) in scenes.enumerated() {
        group.addTask {
          var state = SceneState.empty
          try await store.commit([try record(scene: scene, version: 1, ops: pushOps(scene), state: &state)])
        }
        // The thread takes the first group and waits in BEGIN; the other four queue behind it.
        if index == 0 { await waitFor { $0.taken == 1 } }
      }
      await waitFor { $0.pending == 4 }
      #expect(store.groupCounts == (4, 1))
      try blocker.execute("COMMIT")
      try await group.waitForAll()
    }
    #expect(store.transactions == 2, "one transaction for the first group, one for the four queued behind it")
    #expect(try store.load().map(\.name) == scenes)
  }
}
