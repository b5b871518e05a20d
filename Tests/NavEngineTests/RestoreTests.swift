import NavModel
import Testing

@testable import NavEngine

/// Restarting from a store (PROTOCOL.md "Durability"; CONFLICTS.md I1–I4 and
/// V1 across a restart): state, version and epoch continue, retries are
/// still recognised, resuming subscribers get patches.
@Suite("Restore from a store")
struct RestoreTests {
  static func configuration(_ configure: (inout EngineConfiguration) -> Void = { _ in }) -> EngineConfiguration {
    var configuration = EngineConfiguration()
    configure(&configuration)
    return configuration
  }

  /// A new engine from everything `store` kept: a restart.
  static func restart(_ store: InMemorySceneStore, _ configuration: EngineConfiguration) throws -> Engine {
    try Engine(configuration: configuration, store: store, restoring: store.load())
  }

  @Test("V1 a restart keeps state, version and epoch; versions continue")
  func restartContinues() async throws {
    let store = InMemorySceneStore()
    let configuration = Self.configuration { $0.snapshotInterval = 4 }
    let before = Engine(configuration: configuration, store: store)
    for i in 1...10 {
      _ = try await before.mutate(scene: "s", Sample.request([.push(Sample.item("v\(i)"), animated: false)])).get()
    }
    let old = try before.scene("s")
    let after = try Self.restart(store, configuration)
    let scene = try after.scene("s")
    #expect(scene.epoch == old.epoch)
    #expect(await scene.snapshot() == (await old.snapshot()))
    #expect(try store.load().first?.snapshotVersion == 9, "snapshots at 1, 5, 9")
    #expect(try await after.mutate(scene: "s", Sample.request([Sample.button("b")])).get().version == 11)
    #expect(after.sceneNames == ["main", "s"])
    #expect(try await after.scene("main").snapshot().version == 0)
  }

  @Test("I1 I2 I3 hold across a restart")
  func retriesAcrossRestart() async throws {
    let store = InMemorySceneStore()
    let configuration = Self.configuration()
    let before = Engine(configuration: configuration, store: store)
    _ = try await before.mutate(scene: "s", Sample.request([.push(Sample.item("inbox"), animated: false)])).get()
    _ = try await before.mutate(scene: "s", Sample.request([Sample.title("inbox", "B")], client: "b")).get()
    let original = try await before.mutate(
      scene: "s", Sample.request([Sample.title("inbox", "C")], base: 1, client: "c", mutationId: "m1")
    ).get()
    #expect(original.overwritten.count == 1)
    let failed = await before.mutate(scene: "s", Sample.request([Sample.title("nothing", "x")], mutationId: "bad"))
    #expect(failed.failureValue?.code == .itemNotFound)

    let after = try Self.restart(store, configuration)
    let retry = try await after.mutate(
      scene: "s", Sample.request([Sample.title("inbox", "C")], base: 1, client: "c", mutationId: "m1")
    ).get()
    #expect(retry.replayed)
    #expect(retry.version == original.version && retry.overwritten == original.overwritten, "I1")
    let reused = await after.mutate(
      scene: "s", Sample.request([Sample.title("inbox", "D")], client: "c", mutationId: "m1"))
    #expect(reused.failureValue?.code == .invalidMutation && reused.failureValue?.field == "mutationId", "I2")
    let fresh = try await after.mutate(scene: "s", Sample.request([Sample.button("b")], mutationId: "bad")).get()
    #expect(!fresh.replayed && fresh.version == 4, "I3")
  }

  @Test("I4 the bounded memory of ids survives a restart, oldest forgotten first")
  func boundedMemoryAcrossRestart() async throws {
    let store = InMemorySceneStore()
    let configuration = Self.configuration { $0.rememberedMutationIds = 3 }
    let before = Engine(configuration: configuration, store: store)
    for i in 1...5 {
      _ = try await before.mutate(scene: "s", Sample.request([Sample.button("b\(i)")], mutationId: "k\(i)")).get()
    }
    #expect(try store.load()[0].mutationIds.map(\.mutationId) == ["k3", "k4", "k5"], "the store forgot as the engine")
    let after = try Self.restart(store, configuration)
    #expect(try await after.mutate(scene: "s", Sample.request([Sample.button("b5")], mutationId: "k5")).get().replayed)
    let forgotten = try await after.mutate(scene: "s", Sample.request([Sample.button("z")], mutationId: "k1")).get()
    #expect(!forgotten.replayed && forgotten.version == 6)
  }

  @Test("Resuming after a restart gets the updates since sinceVersion, not a snapshot")
  func resumeAcrossRestart() async throws {
    let store = InMemorySceneStore()
    let configuration = Self.configuration { $0.snapshotInterval = 100 }
    let before = Engine(configuration: configuration, store: store)
    for i in 1...5 {
      _ = try await before.mutate(scene: "s", Sample.request([.push(Sample.item("v\(i)"), animated: true)])).get()
    }
    let epoch = try before.scene("s").epoch
    let seen = try await before.scene("s").log.state(at: 2)
    let after = try Self.restart(store, configuration)
    let scene = try after.scene("s")
    let subscriber = TestSubscriber(id: 1)
    try await scene.subscribe(subscriber.subscriber, view: .state, sinceVersion: 2, epoch: epoch)
    let updates = try subscriber.pull()
    #expect(updates.map { $0["kind"] } == Array(repeating: "update", count: 3))
    #expect(updates.map { $0["toVersion"] } == [.number(3), .number(4), .number(5)])
    #expect(updates.allSatisfy { $0["animated"] == true }, "animated and events are recomputed by replay")
    var document = DocumentView.state.document(of: try #require(seen))
    for update in updates {
      document = try PatchApplier.apply(try JSONPatch.decode(update["patch"] ?? []), to: document)
    }
    #expect(document == DocumentView.state.document(of: await scene.snapshot().state))
  }

  @Test("C conflicts are judged across a restart: the restored log knows who wrote what")
  func conflictsAcrossRestart() async throws {
    let store = InMemorySceneStore()
    let configuration = Self.configuration()
    let before = Engine(configuration: configuration, store: store)
    _ = try await before.mutate(scene: "s", Sample.request([.push(Sample.item("inbox"), animated: false)])).get()
    _ = try await before.mutate(scene: "s", Sample.request([Sample.title("inbox", "A")], client: "a")).get()
    let after = try Self.restart(store, configuration)
    let conflict = await after.mutate(
      scene: "s", Sample.request([Sample.title("inbox", "B")], base: 1, client: "b", policy: .failOnConflict))
    #expect(conflict.failureValue?.code == .conflict)
    let overwrite = try await after.mutate(
      scene: "s", Sample.request([Sample.title("inbox", "B")], base: 1, client: "b")
    ).get()
    #expect(overwrite.overwritten.map(\.writtenBy) == ["a"] && !overwrite.baseVersionExpired)
  }

  @Test("A stored log that does not replay is a start-up error naming the scene and version")
  func unreplayableLog() throws {
    let pop = StoredScene(
      name: "s", epoch: "00000000000000aa", snapshotVersion: 3, snapshot: .empty,
      log: [StoredLogEntry(version: 4, client: "a", mutationId: nil, ops: [.pop(expectTop: nil, animated: false)])],
      mutationIds: [])
    let error = try #require(throws: StoreError.self) {
      try Engine(store: InMemorySceneStore(), restoring: [pop])
    }
    #expect(error.kind == .corrupt)
    #expect(error.message.contains("scene \"s\"") && error.message.contains("version 4"), "\(error.message)")
    var gap = pop
    gap.log = [StoredLogEntry(version: 5, client: "a", mutationId: nil, ops: [Sample.button("b")])]
    let gapError = try #require(throws: StoreError.self) {
      try Engine(store: InMemorySceneStore(), restoring: [gap])
    }
    #expect(gapError.message.contains("version 5 where 4"), "\(gapError.message)")
  }

  @Test("Limits: a restored op log keeps only what its bounds allow, with the floor exact")
  func restoredLogBounded() async throws {
    let store = InMemorySceneStore()
    let configuration = Self.configuration { $0.snapshotInterval = 1000 }
    let before = Engine(configuration: configuration, store: store)
    for i in 1...40 {
      _ = try await before.mutate(scene: "s", Sample.request([.push(Sample.item("v\(i)"), animated: false)])).get()
    }
    let small = Self.configuration {
      $0.opLogCapacity = 8
      $0.snapshotInterval = 1000
    }
    let after = try Self.restart(store, small)
    let scene = try after.scene("s")
    let log = await scene.log
    #expect(log.count == 8 && log.floorVersion == 32)
    #expect(log.state(at: 32)?.navigationBar.items.count == 32)
    #expect(await scene.snapshot() == (try await before.scene("s").snapshot()))
    let snapshots = await scene.snapshots
    #expect(snapshots.lastVersion == 1 && snapshots.bytesSince > 0)
  }

  @Test("Snapshots: with the first version, then every snapshotInterval versions or snapshotBytes of ops")
  func snapshotPolicy() async throws {
    let store = RecordingStore()
    let scene = makeScene(store: store) {
      $0.snapshotInterval = 4
      $0.snapshotBytes = 1000
    }
    for i in 1...10 { try await scene.commit(Sample.request([Sample.button("b\(i)")])) }
    for i in 11...16 { try await scene.commit(Sample.request(ByteBoundTests.bulky(i))) }
    let records = store.groups.flatMap { $0 }
    var expected: [UInt64] = []
    var last: UInt64?
    var bytes = 0
    for record in records {
      bytes += JSONWriter.bytes(.array(record.ops.map(\.json))).count
      if last == nil || record.version - last! >= 4 || bytes >= 1000 {
        expected.append(record.version)
        last = record.version
        bytes = 0
      }
    }
    let snapshotted = records.filter { $0.snapshot != nil }.map(\.version)
    #expect(snapshotted == expected)
    #expect(snapshotted.prefix(3) == [1, 5, 9], "by versions while ops are small")
    #expect(zip(snapshotted.dropFirst(3), snapshotted.dropFirst(4)).contains { $1 - $0 < 4 }, "by bytes when large")
    for record in records where record.snapshot != nil {
      #expect(record.snapshot == (await scene.log.state(at: record.version)))
    }
  }

  @Test("Snapshots (PROTOCOL.md §9.26): an import's stored state starts the count, as a restart's newest snapshot does")
  func importStartsTheSnapshotCount() async throws {
    let store = RecordingStore()
    let engine = Engine(configuration: Self.configuration { $0.snapshotInterval = 4 }, store: store)
    let imported = SceneState.empty
    _ = try await engine.importScene("s", state: imported, version: 40).get()
    for i in 41...45 {
      _ = try await engine.mutate(scene: "s", Sample.request([Sample.button("b\(i)")])).get()
    }
    let snapshotted = store.groups.flatMap { $0 }.filter { $0.scene == "s" && $0.snapshot != nil }.map(\.version)
    #expect(snapshotted == [40, 44], "the import's record at 40, then 40 + 4; not 41 as if nothing were stored")
  }
}
