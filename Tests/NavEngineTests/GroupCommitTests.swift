import NavModel
import Testing

@testable import NavEngine

/// The two-phase group commit (CONFLICTS.md V1–V4): a group is planned as
/// values, stored, and only then installed and published.
@Suite("Two-phase group commit")
struct GroupCommitTests {
  @Test("V4 a read while the group is being stored sees the state before it")
  func readDuringStoreSeesOldState() throws {
    let held = HeldScene()
    held.submit(Sample.request([.push(Sample.item("inbox"), animated: false)]), 0)
    #expect(held.store.groups == [[1]])
    let subscriber = TestSubscriber(id: 1)
    try held.read { scene in
      #expect(scene.version == 0)
      #expect(scene.state == .empty)
      // A subscriber that arrives meanwhile starts at version 0 and then gets version 1.
      try scene.subscribe(subscriber.subscriber, view: .state, sinceVersion: nil)
    }
    #expect(try subscriber.pull().map { $0["version"] } == [.number(0)])
    #expect(held.answers[0] == nil, "not answered before it is stored")
    held.finish()
    #expect(try held.answers[0]?.get().version == 1)
    #expect(held.read { $0.version } == 1)
    #expect(try subscriber.pull().map { $0["toVersion"] } == [.number(1)])
  }

  @Test("V1 a failed store changes nothing and its versions are never seen: the next commit numbers them again")
  func failedStoreLeavesNothing() throws {
    let held = HeldScene()
    let subscriber = TestSubscriber(id: 1)
    try held.read { try $0.subscribe(subscriber.subscriber, view: .state, sinceVersion: nil) }
    _ = try subscriber.pull()
    held.submit(Sample.request([Sample.button("lost")], mutationId: "m"), 0)
    held.finish(failing: StoreError(.full, "no space left on device"))
    let error = try #require(held.answers[0]?.failureValue)
    #expect(error.code == .storageFailed)
    #expect(error.message.contains("no space left on device"), "\(error.message)")
    held.read { scene in
      #expect(scene.version == 0)
      #expect(scene.memory.count == 0, "a failed mutation id is not remembered (I3)")
      #expect(scene.log.count == 0)
    }
    held.submit(Sample.request([Sample.button("kept")], mutationId: "m"), 1)
    #expect(held.store.groups == [[1]], "the next group numbers version 1 again")
    held.finish()
    let outcome = try #require(try held.answers[1]?.get())
    #expect(outcome.version == 1 && !outcome.replayed)
    let updates = try subscriber.pull()
    #expect(updates.map { $0["toVersion"] } == [.number(1)], "version 1 is sent once, for the stored mutation")
    let state = held.read { $0.state }
    #expect(state.barButtonItems["kept"] != nil && state.barButtonItems["lost"] == nil)
  }

  @Test("V3 requests later in a group see earlier ones: conflicts, versions and a same-group retry")
  func laterRequestsSeeEarlierOnes() async throws {
    let scene = makeScene()
    try await scene.commit(Sample.request([.push(Sample.item("inbox"), animated: false)], client: "a"))
    let plan = await scene.planned([
      Sample.request([Sample.title("inbox", "A")], base: 1, client: "a", mutationId: "m1"),
      Sample.request([Sample.title("inbox", "B")], base: 1, client: "b", policy: .failOnConflict),
      Sample.request([Sample.title("inbox", "C")], base: 1, client: "c"),
      Sample.request([Sample.title("inbox", "A")], base: 1, client: "a", mutationId: "m1"),
      Sample.request([Sample.title("inbox", "Z")], base: 1, client: "a", mutationId: "m1"),
      Sample.request([.pop(expectTop: nil, animated: false)], base: 1, client: "d"),
    ])
    #expect(plan.versions.map(\.entry.version) == [2, 3])
    #expect(try plan.results[0].get().version == 2)
    let conflict = try #require(plan.results[1].failureValue)
    #expect(conflict.code == .conflict)
    #expect(conflict.extra["currentVersion"] == .number(2), "judged against the planned version 2")
    let overwrite = try plan.results[2].get()
    #expect(overwrite.version == 3)
    #expect(overwrite.overwritten.map(\.writtenAt) == [2])
    let replay = try plan.results[3].get()
    #expect(replay.replayed && replay.version == 2, "a same-group duplicate mutationId is a replay (I1)")
    #expect(plan.results[4].failureValue?.code == .invalidMutation, "I2 within one group")
    #expect(plan.results[5].failureValue?.code == .cannotPopRoot)
    #expect(plan.dependsOnGroup == [true, true, true, true, true, true])
    // Planning installed nothing.
    #expect(await scene.snapshot().version == 1)
    #expect(await scene.log.count == 1)
    #expect(await scene.memory.lookup(.init(client: "a", mutationId: "m1")) == nil)
  }

  @Test(
    "V2 when the store fails, every writer judged with the group in view gets StorageFailed; others keep their answer")
  func storeFailureFailsTheGroup() async throws {
    let store = InMemorySceneStore()
    let scene = makeScene(store: store)
    try await scene.commit(Sample.request([Sample.button("b")], client: "a", mutationId: "old"))
    store.failNextCommit(with: StoreError(.io, "I/O error writing the log"))
    let results = await scene.commitGroup([
      Sample.request([Sample.button("b")], client: "a", mutationId: "old"),
      Sample.request([], client: "a"),
      Sample.request([Sample.button("c")], client: "a", mutationId: "new"),
      Sample.request([Sample.button("c")], client: "a", mutationId: "new"),
      Sample.request([Sample.title("nothing", "x")], client: "b"),
    ])
    #expect(try results[0].get().replayed, "a replay of a stored mutation is still true")
    #expect(results[1].failureValue?.code == .invalidMutation, "a pure validation error does not depend on the group")
    for index in 2...4 {
      let error = try #require(results[index].failureValue)
      #expect(error.code == .storageFailed, "result \(index): \(error)")
      #expect(error.message.contains("I/O error writing the log"))
    }
    #expect(await scene.snapshot().version == 1)
    #expect(try store.load().map(\.version) == [1], "the store kept nothing of the failed group")
    #expect(try await scene.commit(Sample.request([Sample.button("c")], client: "a", mutationId: "new")).version == 2)
  }

  @Test("Store records: every field filled, in version order, one group per commit")
  func recordsAreFilled() async throws {
    let store = RecordingStore()
    let scene = makeScene(store: store)
    try await scene.commit(
      Sample.request([.push(Sample.item("inbox"), animated: false)], client: "a", mutationId: "m1"))
    try await scene.commit(Sample.request([Sample.title("inbox", "Mail")], client: "b"))
    let records = store.groups.flatMap { $0 }
    #expect(records.map(\.version) == [1, 2])
    #expect(records.allSatisfy { $0.scene == "main" && $0.epoch == scene.epoch })
    #expect(records[0].client == "a" && records[0].mutationId == "m1")
    #expect(records[1].client == "b" && records[1].mutationId == nil)
    #expect(records[0].opsDigest == SceneEngine.digest(JSONWriter.bytes(.array(records[0].ops.map(\.json)))))
    #expect(records[0].outcome.version == 1 && !records[0].outcome.replayed)
    #expect(records[1].outcome.overwritten.isEmpty)
    #expect(records[0].snapshot == (await scene.log.state(at: 1)), "the first version carries a snapshot")
    #expect(records[1].snapshot == nil)
    #expect(records.allSatisfy { $0.forgetMutationIdsThrough == 0 })
  }
}

extension Result {
  /// The error, or nil on success.
  var failureValue: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
