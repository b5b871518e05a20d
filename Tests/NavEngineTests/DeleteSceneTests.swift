import NavModel
import Synchronization
import Testing

@testable import NavEngine

/// `DeleteScene` in the engine (PROTOCOL.md §3 DeleteScene): the history ends durably, the
/// slot goes (with its `maxScenes` place and its creator's quota), the streams are handed
/// back, and a later write starts a new history; and `created` marks the commit that made a scene.
@Suite("DeleteScene and created")
struct DeleteSceneTests {
  private static let alice = SceneRequester(uid: 1001, exempt: false)

  private func engine(
    store: any SceneStore = InMemorySceneStore(), maxScenes: Int = 1024, perUser: Int = 64
  ) -> Engine {
    var configuration = EngineConfiguration()
    configuration.maxScenes = maxScenes
    configuration.maxScenesPerUser = perUser
    return Engine(configuration: configuration, store: store)
  }

  private func write(
    _ engine: Engine, _ scene: String, _ button: String = "b", by requester: SceneRequester? = nil
  ) async -> Result<MutationOutcome, NavError> {
    await engine.mutate(scene: scene, Sample.request([Sample.button(button)]), requester: requester)
  }

  @Test("created is true on the commit that made the scene only, never on a replay or an existing scene")
  func createdOnce() async throws {
    let engine = engine()
    #expect(try await write(engine, "mail").get().created)
    #expect(try await !write(engine, "mail", "c").get().created)
    #expect(try await !write(engine, "main").get().created, "main always exists")
    let request = Sample.request([Sample.button("d")], mutationId: "m1")
    #expect(try await engine.mutate(scene: "fresh", request).get().created)
    let replay = try await engine.mutate(scene: "fresh", request).get()
    #expect(replay.replayed && !replay.created)
  }

  @Test("A deleted scene is gone from the names and from the store; a later write is version 1 in a new epoch")
  func deleteThenRecreate() async throws {
    let store = InMemorySceneStore()
    let engine = engine(store: store)
    _ = try await write(engine, "mail").get()
    _ = try await write(engine, "mail", "c").get()
    let old = try engine.scene("mail").epoch
    let deletion = try await engine.deleteScene("mail", ifVersion: nil).get()
    #expect(deletion.version == 2 && deletion.epoch == old)
    #expect(engine.sceneNames == ["main"])
    #expect(try store.load().isEmpty, "main was never written, mail is deleted")
    #expect(throws: NavError.self) { try engine.scene("mail") }
    let again = try await write(engine, "mail").get()
    #expect(again.version == 1 && again.created)
    #expect(try engine.scene("mail").epoch != old)
    let restarted = try Engine(store: store, restoring: store.load())
    #expect(try await restarted.scene("mail").snapshot().version == 1)
  }

  @Test("A deletion frees the scene's maxScenes place and its creator's per-uid quota")
  func freesQuotas() async throws {
    let engine = engine(maxScenes: 100, perUser: 1)
    _ = try await write(engine, "a1", by: Self.alice).get()
    #expect(await write(engine, "a2", by: Self.alice).failureValue?.limit == "scenesPerUser")
    _ = try await engine.deleteScene("a1", ifVersion: nil).get()
    #expect(try await write(engine, "a2", by: Self.alice).get().created)
  }

  @Test("A deletion asked for while a group is being stored waits for that group, then ends at its version")
  func deletionWaitsForTheGroupBeingStored() async throws {
    let held = HeldScene()
    held.submit(Sample.request([Sample.button("b")]), 0)
    #expect(held.store.groups == [[1]])
    let scene = held.scene
    let ended = Mutex<Result<SceneEngine.Deletion, NavError>?>(nil)
    Task {
      let result = await scene.delete(ifVersion: nil)
      ended.withLock { $0 = result }
    }
    // The task comes to the scene as a job on the manual executor, from another thread.
    for _ in 0..<100_000 where held.executor.pendingCount == 0 { await Task.yield() }
    held.executor.runAll()
    #expect(held.store.groups == [[1]], "the deletion is not handed to the store while version 1 is being stored")
    #expect(held.answers[0] == nil)
    held.finish()
    #expect(try held.answers[0]?.get().version == 1, "the group planned before the deletion commits")
    // The deletion then goes on, and hands its record to the store from off the executor.
    for _ in 0..<100_000 where held.store.groups.isEmpty {
      held.executor.runAll()
      await Task.yield()
    }
    #expect(held.store.groups == [[0]], "then the deletion's record, which has no version")
    held.finish()
    for _ in 0..<100_000 where ended.withLock({ $0 == nil }) {
      held.executor.runAll()
      await Task.yield()
    }
    #expect(try ended.withLock { $0 }?.get().version == 1)
  }

  @Test("ifVersion other than the scene's is Conflict with currentVersion; nothing is deleted")
  func ifVersion() async throws {
    let engine = engine()
    _ = try await write(engine, "mail").get()
    let refused = await engine.deleteScene("mail", ifVersion: 7).failureValue
    #expect(refused?.code == .conflict && refused?.field == "ifVersion")
    #expect(refused?.extra["currentVersion"] == 1)
    #expect(engine.sceneNames.contains("mail"))
    #expect(try await !write(engine, "mail", "c").get().created, "the scene still takes mutations")
    #expect(try await engine.deleteScene("mail", ifVersion: 2).get().version == 2)
  }

  @Test("An unknown scene is SceneNotFound; a store that refuses leaves the scene as it was (StorageFailed)")
  func failures() async throws {
    let store = InMemorySceneStore()
    let engine = engine(store: store)
    #expect(await engine.deleteScene("nope", ifVersion: nil).failureValue?.code == .sceneNotFound)
    _ = try await write(engine, "mail").get()
    store.failNextCommit()
    #expect(await engine.deleteScene("mail", ifVersion: nil).failureValue?.code == .storageFailed)
    #expect(try await engine.scene("mail").snapshot().version == 1)
    #expect(try await !write(engine, "mail", "c").get().created)
  }

  @Test("The deletion names every stream; they get nothing more, and a new subscription is SceneNotFound")
  func streams() async throws {
    let engine = engine()
    _ = try await write(engine, "mail").get()
    let scene = try engine.scene("mail")
    let subscriber = TestSubscriber(id: 7)
    let watcher = TestSubscriber(id: 8)
    try await scene.subscribe(subscriber.subscriber, view: .state, sinceVersion: nil)
    try await scene.watchActions(watcher.subscriber)
    _ = try subscriber.pull()
    let deletion = try await engine.deleteScene("mail", ifVersion: nil).get()
    #expect(Set(deletion.streams) == [7, 8])
    #expect(await scene.subscriberTotal == 0)
    #expect(await scene.mutate(Sample.request([Sample.button("x")])).failureValue?.code == .conflict)
    #expect(try subscriber.pull().isEmpty)
    let late = TestSubscriber(id: 9)
    await #expect(throws: NavError.self) { try await scene.subscribe(late.subscriber, view: .state, sinceVersion: nil) }
  }

  @Test("Deleting main leaves an empty main at version 0 in a new epoch")
  func deleteMain() async throws {
    let engine = engine()
    _ = try await write(engine, "main").get()
    let old = try engine.scene("main").epoch
    _ = try await engine.deleteScene("main", ifVersion: nil).get()
    let main = try engine.scene("main")
    #expect(main.epoch != old)
    #expect(await main.snapshot().version == 0)
    #expect(engine.sceneNames == ["main"])
  }

  @Test("A waiter that followed the scene's creation is ended with it, and leaving after does not trap")
  func waiterOfDeletedScene() async throws {
    let engine = engine()
    let waiter = TestSubscriber(id: 3)
    try await engine.subscribe(waitingFor: "late", waiter.subscriber, view: .state, sinceVersion: nil)
    _ = try await write(engine, "late").get()
    let deletion = try await engine.deleteScene("late", ifVersion: nil).get()
    #expect(deletion.streams == [3])
    waiter.subscriber.cancel()
    #expect(engine.slots.withLock { $0["late"] } == nil)
  }
}
