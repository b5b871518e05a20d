import Foundation
import NavEngine
import NavModel
import Synchronization
import Testing

@testable import NavStore

/// A store at `path` whose redo log's applier, woken by a record after a rest, lets records
/// gather for 5 s; the database holds version 1 of "main" (`state`), committed and applied by
/// an earlier store, so the new log begins at sequence 2.
///
/// Nothing here waits for the slow applier on the test's thread: the cooperative pool has two
/// threads here, and other tests share them.
func slowStore(at path: String, state: inout SceneState) async throws -> SQLiteSceneStore {
  let first = try SQLiteSceneStore(path: path, durability: .normal)
  try await first.commit([try record(version: 1, ops: pushOps("i1"), state: &state, mutationId: "m1")])
  await closeOffPool(first)
  let store = try SQLiteSceneStore(
    path: path, durability: .normal, redoLimits: RedoLogLimits(batchNanoseconds: 5_000_000_000))
  try await waitForApplierRest()
  return store
}

/// `slowStore` with versions 2...`count` committed: in its log only, as a kill -9 would find them.
func storeWithUnappliedGroups(
  in directory: TemporaryDirectory, count: UInt64, state: inout SceneState
) async throws -> SQLiteSceneStore {
  let store = try await slowStore(at: directory.database, state: &state)
  for version in 2...count {
    try await store.commit([
      try record(
        version: version, ops: pushOps("i\(version)"), state: &state, mutationId: "m\(version)", snapshot: version == 3)
    ])
  }
  return store
}

/// Lets a new store's applier go to rest: a record it finds before then is written at once, not
/// after `batchNanoseconds`.
func waitForApplierRest() async throws { try await Task.sleep(for: .milliseconds(100)) }

/// Closes `store` on a thread of its own (it waits for the applier's nap and last batch) and
/// waits for that without holding a thread of the cooperative pool.
func closeOffPool(_ store: SQLiteSceneStore) async {
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    Thread.detachNewThread {
      store.close()
      done.resume()
    }
  }
}

/// How many of a test's concurrent commits returned.
final class DoneCount: Sendable {
  let count = Mutex(0)
}

@Suite("The redo log (--durability normal): a crash keeps every acknowledged group (STORAGE.md §2, §4)")
struct RedoLogCommitsTests {
  @Test("the applier thread, navd-redo, runs at nice 10: the event loop comes first (STORAGE.md §2)")
  func applierIsNice() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal)
    var nices: [String] = []
    for _ in 0..<100 where nices.isEmpty {
      for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") {
        let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        guard comm.hasPrefix("navd-redo"),
          let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8)
        else { continue }
        // Field 19 (nice) counted after the ")" that ends the thread's name.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        nices.append(String(fields[16]))
      }
      if nices.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
    }
    #expect(!nices.isEmpty, "a navd-redo thread runs")
    #expect(Set(nices) == ["10"])
    await closeOffPool(store)
  }

  @Test("kill -9: a start on a byte-for-byte copy of the state directory has every group, then removes the log")
  func crashCopy() async throws {
    let live = TemporaryDirectory()
    var state = SceneState.empty
    let store = try await storeWithUnappliedGroups(in: live, count: 20, state: &state)
    let copy = TemporaryDirectory()
    try copyStateFiles(from: live.path, to: copy.path)
    #expect(store.transactions == 0, "the applier wrote before the copy: the copy would not need the log")
    #expect(try redoFileNames(in: copy.path) == ["navd.redo.0000000000000002"])
    #expect(try redoApplied(copy.database) == 1)

    let reopened = try SQLiteSceneStore(path: copy.database, durability: .normal)
    #expect(reopened.droppedAtStart == nil)
    // The replayed log is gone; the new one starts at the next sequence (21) and holds nothing.
    #expect(try redoFileNames(in: copy.path) == ["navd.redo.0000000000000015"])
    #expect(try fileSize(copy.path + "/navd.redo.0000000000000015") == 0)
    #expect(try redoApplied(copy.database) == 20)
    let stored = try #require(try reopened.load().first)
    #expect(stored.version == 20)
    #expect(stored.snapshotVersion == 3)
    #expect(stored.replayed().state == state)
    #expect(stored.mutationIds.map(\.mutationId) == (1...20).map { "m\($0)" })
    reopened.close()
    #expect(try redoFileNames(in: copy.path) == [])
    await closeOffPool(store)
  }

  @Test("a torn tail (a crash of the machine): the start keeps every whole record and says what it dropped")
  func tornTail() async throws {
    let live = TemporaryDirectory()
    var state = SceneState.empty
    let store = try await storeWithUnappliedGroups(in: live, count: 6, state: &state)
    let copy = TemporaryDirectory()
    try copyStateFiles(from: live.path, to: copy.path)
    #expect(store.transactions == 0, "the applier wrote before the copy: the copy would not need the log")
    let log = copy.path + "/navd.redo.0000000000000002"
    let size = try fileSize(log)
    #expect(truncate(log, off_t(size - 3)) == 0)

    let reopened = try SQLiteSceneStore(path: copy.database, durability: .normal)
    defer { reopened.close() }
    let dropped = try #require(reopened.droppedAtStart)
    #expect(dropped.contains("\(log) at byte "), "\(dropped)")
    #expect(dropped.contains("only"), "\(dropped)")
    #expect(try redoFileNames(in: copy.path) == ["navd.redo.0000000000000006"])
    let stored = try #require(try reopened.load().first)
    #expect(stored.version == 5)
    #expect(stored.log.map(\.version) == [4, 5])
    #expect(try redoApplied(copy.database) == 5)
    await closeOffPool(store)
  }

  @Test("backlog: a commit past backlogBytes waits (it does not fail) and returns once the applier caught up")
  func backlogWaits() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal,
      redoLimits: RedoLogLimits(backlogBytes: 1, batchNanoseconds: 200_000_000))
    defer { store.close() }
    try await waitForApplierRest()
    var state = SceneState.empty
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state)])
    #expect(store.transactions == 0)
    let started = ContinuousClock.now
    try await store.commit([try record(version: 2, ops: pushOps("b"), state: &state)])
    // Only the applier's transaction can have let it through: it naps 200 ms before writing.
    #expect(store.transactions >= 1)
    #expect(ContinuousClock.now - started >= .milliseconds(100))
    #expect(try store.load().first?.version == 2)
  }

  @Test("backlog: a scene past its part of the backlog waits for its own records; other scenes' commits go on")
  func sceneBacklogShare() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal,
      redoLimits: RedoLogLimits(backlogBytes: 1 << 20, sceneBacklogBytes: 1, batchNanoseconds: 200_000_000))
    try await waitForApplierRest()
    var heavy = SceneState.empty
    #expect(try store.commitAtOnce([try record(scene: "heavy", version: 1, ops: pushOps("a"), state: &heavy)]))
    let next = [try record(scene: "heavy", version: 2, ops: pushOps("b"), state: &heavy)]
    #expect(try !store.commitAtOnce(next), "heavy's one unapplied record is its whole part")
    for scene in ["other", "third"] {
      var state = SceneState.empty
      #expect(
        try store.commitAtOnce([try record(scene: scene, version: 1, ops: pushOps("o"), state: &state)]),
        "\(scene)'s group is written at once, beside heavy's full part")
    }
    #expect(store.transactions == 0, "nothing was applied: only the parts decided")
    try await store.commit(next)
    #expect(store.transactions >= 1, "heavy's second group waited for the applier")
    await closeOffPool(store)
    let reopened = try SQLiteSceneStore(path: directory.database, durability: .normal)
    defer { reopened.close() }
    let scenes = Dictionary(uniqueKeysWithValues: try reopened.load().map { ($0.name, $0.version) })
    #expect(scenes == ["heavy": 2, "other": 1, "third": 1])
  }

  @Test(
    "at once: a group past backlogBytes is not written (false) and the awaited commit stores it; full never is at once")
  func commitAtOnceWhenFull() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal,
      redoLimits: RedoLogLimits(backlogBytes: 1, batchNanoseconds: 200_000_000))
    try await waitForApplierRest()
    var state = SceneState.empty
    #expect(try store.commitAtOnce([]))
    #expect(try store.commitAtOnce([try record(version: 1, ops: pushOps("a"), state: &state)]))
    let second = [try record(version: 2, ops: pushOps("b"), state: &state)]
    #expect(try !store.commitAtOnce(second), "the backlog holds version 1 until the applier's nap ends")
    #expect(store.transactions == 0)
    try await store.commit(second)
    #expect(try store.load().first?.log.map(\.version) == [1, 2], "version 2 once: the refused try wrote nothing")
    await closeOffPool(store)
    let full = try SQLiteSceneStore(path: directory.database, durability: .full)
    defer { full.close() }
    #expect(try !full.commitAtOnce([try record(version: 3, ops: pushOps("c"), state: &state)]))
    #expect(try full.load().first?.version == 2)
  }

  @Test("backlog: concurrent commits never leave more than backlogBytes plus one record unapplied")
  func backlogBound() async throws {
    let directory = TemporaryDirectory()
    let limit = 300
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal,
      redoLimits: RedoLogLimits(backlogBytes: limit, batchNanoseconds: 50_000_000))
    defer { store.close() }
    let done = DoneCount()
    var worst = 0
    var longest = 0
    try await withThrowingTaskGroup(of: Void.self) { group in
      for scene in 0..<12 {
        group.addTask {
          var state = SceneState.empty
          try await store.commit([
            try record(scene: "s\(scene % 10)\(scene / 10)", version: 1, ops: pushOps("x"), state: &state)
          ])
          done.count.withLock { $0 += 1 }
        }
      }
      // Records in the log read first, the position after: never more unapplied than there were.
      for _ in 0..<500 where done.count.withLock({ $0 }) < 12 {
        let records = try redoRecords(in: directory.path)
        let applied = try redoApplied(directory.database)
        worst = max(worst, records.filter { $0.sequence > applied }.reduce(0) { $0 + $1.length })
        longest = max(longest, records.map(\.length).max() ?? 0)
        try await Task.sleep(for: .milliseconds(10))
      }
      try await group.waitForAll()
    }
    #expect(longest > 0 && longest * 3 > limit, "records of \(longest) bytes: the limit must hold only a few")
    #expect(worst <= limit + longest, "\(worst) bytes unapplied with a limit of \(limit)")
    #expect(worst > 0, "the samples never saw an unapplied record")
    #expect(try store.load().map(\.version) == Array(repeating: 1, count: 12))
  }

  @Test(
    "a backlog is held as the bytes of its records, back to back in chunks of at most chunkBytes (STORAGE.md §2)",
    arguments: [1, 1 << 20])
  func backlogIsItsBytes(chunkBytes: Int) async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal,
      redoLimits: RedoLogLimits(batchNanoseconds: 300_000_000, chunkBytes: chunkBytes))
    try await waitForApplierRest()
    var state = SceneState.empty
    for version in 1...4 {
      try await store.commit([try record(version: UInt64(version), ops: pushOps("i\(version)"), state: &state)])
    }
    // The first record woke the applier, which naps 300 ms before it takes what is pending.
    let lengths = try redoRecords(in: directory.path).map(\.length)
    let chunks = store.redoPendingChunkSizes
    #expect(lengths.count == 4)
    if chunkBytes == 1 {
      #expect(chunks == lengths, "a record larger than a chunk is a chunk of its own")
    } else {
      #expect(chunks == [lengths.reduce(0, +)], "records share a chunk up to chunkBytes")
    }
    await closeOffPool(store)
    #expect(try SQLiteSceneStore(path: directory.database, durability: .normal).load().first?.version == 4)
  }

  @Test("a backlog past transactionBytes is written in several transactions, each moving redo_applied on")
  func backlogInSeveralTransactions() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal,
      redoLimits: RedoLogLimits(batchNanoseconds: 300_000_000, transactionBytes: 1))
    defer { store.close() }
    try await waitForApplierRest()
    var state = SceneState.empty
    for version in 1...5 {
      try await store.commit([try record(version: UInt64(version), ops: pushOps("i\(version)"), state: &state)])
    }
    let last = try #require(try redoRecords(in: directory.path).map(\.sequence).max())
    var applied: [UInt64] = []
    for _ in 0..<500 where applied.last != last {
      let now = try redoApplied(directory.database)
      if now != applied.last { applied.append(now) }
      try await Task.sleep(for: .milliseconds(2))
    }
    #expect(applied.last == last, "the applier did not catch up within a second")
    #expect(store.transactions == 5, "one transaction per record: each is past transactionBytes")
    #expect(try store.load().first?.log.map(\.version) == [1, 2, 3, 4, 5])
  }

  @Test("rotation: files past fileBytes are retired and removed once applied; close leaves no log")
  func rotation() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal,
      redoLimits: RedoLogLimits(fileBytes: 200, batchNanoseconds: 1_000_000))
    var state = SceneState.empty
    var seen: Set<String> = []
    for round in UInt64(0)..<10 {
      for version in round * 5 + 1...round * 5 + 5 {
        try await store.commit([try record(version: version, ops: pushOps("i\(version)"), state: &state)])
      }
      #expect(try store.load().first?.version == round * 5 + 5)
      let names = try redoFileNames(in: directory.path)
      #expect(names.count <= 3, "round \(round): \(names)")
      seen.formUnion(names)
    }
    #expect(seen.count >= 5, "\(seen.sorted())")
    store.close()
    #expect(try redoFileNames(in: directory.path) == [])
    #expect(try redoApplied(directory.database) == 50)
    let reopened = try SQLiteSceneStore(path: directory.database, durability: .normal)
    defer { reopened.close() }
    let stored = try #require(try reopened.load().first)
    #expect(stored.version == 50)
    #expect(stored.replayed().state == state)
  }

  @Test(
    "the database refusing records (not a full disk) fails the next commits with its reason; nothing acknowledged is lost"
  )
  func applierRefused() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal, redoLimits: RedoLogLimits(batchNanoseconds: 1_000_000))
    defer { store.close() }
    var state = SceneState.empty
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state, mutationId: "m1")])
    _ = try store.load()
    try runSQL(
      "CREATE TRIGGER refuse BEFORE INSERT ON log WHEN NEW.version = 2 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
      at: directory.database)
    // Acknowledged: it is in the log; the applier cannot write it.
    try await store.commit([try record(version: 2, ops: pushOps("b"), state: &state, mutationId: "m2")])
    try await Task.sleep(for: .milliseconds(300))
    var third = state
    let error = await #expect(throws: StoreError.self) {
      try await store.commit([try record(version: 3, ops: pushOps("c"), state: &third, mutationId: "m3")])
    }
    #expect(error?.kind == .io)
    #expect(
      error?.message.contains("the database refuses the redo log's records") == true, "\(String(describing: error))")
    #expect(error?.message.contains("refused by the test") == true, "\(String(describing: error))")

    try runSQL("DROP TRIGGER refuse", at: directory.database)
    var stored = false
    for _ in 0..<100 where !stored {
      try await Task.sleep(for: .milliseconds(50))
      third = state
      do {
        try await store.commit([try record(version: 3, ops: pushOps("c"), state: &third, mutationId: "m3")])
        stored = true
      } catch let error as StoreError {
        #expect(error.message.contains("refused by the test"), "\(error)")
      }
    }
    #expect(stored, "commits still refused 5 s after the database took records again")
    let scene = try #require(try store.load().first)
    #expect(scene.log.map(\.version) == [1, 2, 3])
    #expect(scene.mutationIds.map(\.mutationId) == ["m1", "m2", "m3"])
    #expect(scene.replayed().state == third)
  }

  @Test("close while the database refuses records returns, keeps them in the log, and the next start applies them")
  func closeWhileRefused() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal, redoLimits: RedoLogLimits(batchNanoseconds: 1_000_000))
    var state = SceneState.empty
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state, mutationId: "m1")])
    _ = try store.load()
    try runSQL(
      "CREATE TRIGGER refuse BEFORE INSERT ON log WHEN NEW.version = 2 BEGIN SELECT RAISE(ABORT, 'refused'); END",
      at: directory.database)
    try await store.commit([try record(version: 2, ops: pushOps("b"), state: &state, mutationId: "m2")])
    // Let the applier fail a few times before navd stops.
    try await Task.sleep(for: .milliseconds(300))
    let closed = DoneCount()
    Thread.detachNewThread {
      store.close()
      closed.count.withLock { $0 += 1 }
    }
    for _ in 0..<200 where closed.count.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(50)) }
    #expect(closed.count.withLock { $0 } == 1, "close() still waits for the database 10 s later")
    #expect(try redoRecords(in: directory.path).map(\.sequence) == [1, 2])

    try runSQL("DROP TRIGGER refuse", at: directory.database)
    let reopened = try SQLiteSceneStore(path: directory.database, durability: .normal)
    defer { reopened.close() }
    #expect(reopened.droppedAtStart == nil)
    let stored = try #require(try reopened.load().first)
    #expect(stored.log.map(\.version) == [1, 2])
    #expect(stored.mutationIds.map(\.mutationId) == ["m1", "m2"])
  }

  @Test("a retired file that cannot be removed costs only disk: commits go on and every group is stored")
  func retiredFileStays() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal,
      redoLimits: RedoLogLimits(fileBytes: 100, batchNanoseconds: 1_000_000))
    var state = SceneState.empty
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state)])
    _ = try store.load()
    // The applier retires the file after its batch; wait for the new one.
    var names: [String] = []
    for _ in 0..<100 where names.count < 2 {
      try await Task.sleep(for: .milliseconds(20))
      names = try redoFileNames(in: directory.path)
    }
    #expect(names == ["navd.redo.0000000000000001", "navd.redo.0000000000000002"])
    // unlink(2) of a directory fails (EISDIR): the retired file cannot be removed.
    let retired = directory.path + "/" + names[0]
    try FileManager.default.removeItem(atPath: retired)
    try FileManager.default.createDirectory(atPath: retired, withIntermediateDirectories: false)

    for version in UInt64(2)...6 {
      try await store.commit([try record(version: version, ops: pushOps("i\(version)"), state: &state)])
      #expect(try store.load().first?.version == version)
      try await Task.sleep(for: .milliseconds(20))
    }
    store.close()
    try FileManager.default.removeItem(atPath: retired)
    let reopened = try SQLiteSceneStore(path: directory.database, durability: .normal)
    defer { reopened.close() }
    #expect(try reopened.load().first?.version == 6)
  }

  @Test("a commit waiting for the backlog fails, as a new one does, while the database refuses records")
  func waiterFailsWhenRefused() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(
      path: directory.database, durability: .normal,
      redoLimits: RedoLogLimits(backlogBytes: 1, batchNanoseconds: 1_000_000))
    defer { store.close() }
    var state = SceneState.empty
    try await store.commit([try record(version: 1, ops: pushOps("a"), state: &state)])
    _ = try store.load()
    try runSQL(
      "CREATE TRIGGER refuse BEFORE INSERT ON log WHEN NEW.version = 2 BEGIN SELECT RAISE(ABORT, 'refused'); END",
      at: directory.database)
    try await store.commit([try record(version: 2, ops: pushOps("b"), state: &state)])
    // At once: the backlog holds version 2, so this waits for the applier, which is refused.
    let outcome = Outcome()
    let third = state
    let waiting = Task {
      var next = third
      do {
        try await store.commit([try record(version: 3, ops: pushOps("c"), state: &next)])
        outcome.value.withLock { $0 = "stored" }
      } catch {
        outcome.value.withLock { $0 = "\(error)" }
      }
    }
    for _ in 0..<100 where outcome.value.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(50)) }
    let seen = outcome.value.withLock { $0 }
    #expect(
      seen?.contains("the database refuses the redo log's records") == true, "\(seen ?? "still waiting after 5 s")")
    try runSQL("DROP TRIGGER refuse", at: directory.database)
    await waiting.value
    for _ in 0..<100 where try store.load().first?.version != 2 { try await Task.sleep(for: .milliseconds(50)) }
    #expect(try store.load().first?.log.map(\.version) == [1, 2])
  }
}

/// What a test's background commit came to: nil while it runs.
final class Outcome: Sendable {
  let value = Mutex<String?>(nil)
}
