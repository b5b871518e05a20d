import NavEngine
import NavModel
import Testing

@Suite("SceneEngine: versions, acks, subscriptions")
struct SceneEngineTests {
  @Test("V1 each committed mutation adds exactly one to the version")
  func versionsRiseByOne() async throws {
    let scene = makeScene()
    #expect(try await scene.commit(Sample.request([.push(Sample.item("root"), animated: false)])).version == 1)
    #expect(try await scene.commit(Sample.request([.push(Sample.item("a"), animated: true)])).version == 2)
    let (state, version) = await scene.snapshot()
    #expect(version == 2)
    #expect(state.navigationBar.items.map(\.id) == ["root", "a"])
  }

  @Test("V2 a failing op leaves no trace and the version does not move")
  func failedMutationLeavesNoTrace() async throws {
    let scene = makeScene()
    try await scene.commit(Sample.request([.push(Sample.item("root"), animated: false)]))
    let before = await scene.snapshot()
    let error = await scene.expectFailure(
      Sample.request([Sample.title("root", "Changed"), .pop(expectTop: nil, animated: false)]), .cannotPopRoot)
    #expect(error?.opIndex == 1)
    let after = await scene.snapshot()
    #expect(after.state == before.state)
    #expect(after.version == before.version)
  }

  @Test("V5 a mutation with no ops is rejected")
  func emptyMutationRejected() async {
    let scene = makeScene()
    let error = await scene.expectFailure(Sample.request([]), .invalidMutation)
    #expect(error?.field == "ops")
  }

  @Test("V6 a baseVersion above the scene's version is rejected with the current version")
  func futureBaseVersionRejected() async {
    let scene = makeScene()
    let error = await scene.expectFailure(Sample.request([Sample.button("b")], base: 3), .invalidMutation)
    #expect(error?.field == "baseVersion")
    #expect(error?.parameters["currentVersion"] == 0)
  }

  @Test("V4 the ack comes after the update is queued to every subscriber")
  func ackAfterQueued() async throws {
    let scene = makeScene()
    let subscribers = (1...3).map { TestSubscriber(id: $0) }
    for s in subscribers { try await scene.subscribe(s.subscriber, view: .state, sinceVersion: nil) }
    for s in subscribers { _ = try s.pull() }
    let outcome = try await scene.commit(Sample.request([.push(Sample.item("root"), animated: true)]))
    for s in subscribers {
      let messages = try s.pull()
      #expect(messages.count == 1)
      #expect(messages.first?["kind"] == "update")
      #expect(messages.first?["toVersion"] == .number(Double(outcome.version)))
      #expect(messages.first?["fromVersion"] == .number(Double(outcome.version - 1)))
      #expect(messages.first?["animated"] == true)
      #expect(messages.first?["events"] == [["type": "push", "item": "root", "animated": true]])
    }
  }

  @Test("Subscribe starts with a snapshot of the current document and version")
  func snapshotFirst() async throws {
    let scene = makeScene()
    try await scene.commit(Sample.request([.push(Sample.item("root"), animated: false)]))
    let s = TestSubscriber(id: 1)
    try await scene.subscribe(s.subscriber, view: .state, sinceVersion: nil)
    let messages = try s.pull()
    #expect(messages.count == 1)
    #expect(messages[0]["kind"] == "snapshot")
    #expect(messages[0]["version"] == 1)
    #expect(messages[0]["document"] == (await scene.snapshot()).state.json)
  }

  @Test("Subscribe with sinceVersion in the log resumes with one update per version")
  func resumeFromLog() async throws {
    let scene = makeScene()
    for id in ["root", "a", "b"] { try await scene.commit(Sample.request([.push(Sample.item(id), animated: false)])) }
    let s = TestSubscriber(id: 1)
    try await scene.subscribe(s.subscriber, view: .state, sinceVersion: 1)
    let messages = try s.pull()
    #expect(messages.map { $0["kind"] } == ["update", "update"])
    #expect(messages.map { $0["toVersion"] } == [2, 3])
    var document = try SceneState.empty.applying([.push(Sample.item("root"), animated: false)]).state.json
    for message in messages {
      document = try PatchApplier.apply(try JSONPatch.decode(message["patch"] ?? []), to: document)
    }
    #expect(document == (await scene.snapshot()).state.json)
  }

  @Test("Subscribe with sinceVersion older than the log gets a snapshot")
  func resumeTooOldGetsSnapshot() async throws {
    let scene = makeScene { $0.opLogCapacity = 2 }
    for id in ["root", "a", "b", "c"] {
      try await scene.commit(Sample.request([.push(Sample.item(id), animated: false)]))
    }
    let s = TestSubscriber(id: 1)
    try await scene.subscribe(s.subscriber, view: .state, sinceVersion: 1)
    let messages = try s.pull()
    #expect(messages.map { $0["kind"] } == ["snapshot"])
    #expect(messages[0]["version"] == 4)
  }

  @Test("A sinceVersion from another epoch (a restarted navd) gets a snapshot, never foreign patches")
  func resumeFromAnotherEpochGetsSnapshot() async throws {
    let scene = makeScene()
    for id in ["root", "a", "b"] { try await scene.commit(Sample.request([.push(Sample.item(id), animated: false)])) }
    let foreign = TestSubscriber(id: 1)
    try await scene.subscribe(foreign.subscriber, view: .state, sinceVersion: 1, epoch: "not-this-history")
    let messages = try foreign.pull()
    #expect(messages.map { $0["kind"] } == ["snapshot"])
    #expect(messages.first?["epoch"] == .string(scene.epoch))
    let same = TestSubscriber(id: 2)
    try await scene.subscribe(same.subscriber, view: .state, sinceVersion: 1, epoch: scene.epoch)
    #expect(try same.pull().map { $0["kind"] } == ["update", "update"])
  }

  @Test("V7 a baseVersion from another epoch is judged as expired, even when it is above the version")
  func baseFromAnotherEpoch() async throws {
    let scene = makeScene()
    try await scene.commit(Sample.request([.push(Sample.item("root"), animated: false)]))
    var request = Sample.request([Sample.title("root", "T")], base: 7)
    request.epoch = "old-history"
    #expect(try await scene.commit(request).baseVersionExpired)
    request.policy = .failOnConflict
    let error = await scene.expectFailure(request, .conflict)
    #expect(error?.field == "baseVersion")
    #expect(error?.message.contains("epoch") == true)
  }

  @Test("A subscriber over its queue limit gets one coalesced update, exact")
  func slowSubscriberIsCoalesced() async throws {
    let scene = makeScene()
    let slow = TestSubscriber(id: 1, queueLimit: 600)
    try await scene.subscribe(slow.subscriber, view: .state, sinceVersion: nil)
    let snapshot = try slow.pull()
    var document = snapshot[0]["document"]!
    try await scene.commit(Sample.request([.push(Sample.item("root"), animated: false)]))
    for i in 0..<40 { try await scene.commit(Sample.request([Sample.title("root", "Title \(i)")])) }
    let messages = try slow.pull()
    #expect(slow.subscriber.coalescedCount > 0)
    #expect(messages.count < 41)
    #expect(messages.first?["coalesced"] == true)
    #expect(messages.last?["toVersion"] == 41)
    for message in messages {
      document = try PatchApplier.apply(try JSONPatch.decode(message["patch"] ?? []), to: document)
    }
    #expect(document == (await scene.snapshot()).state.json)
  }

  @Test("I1 a retried mutationId returns the original result and applies nothing")
  func idempotentRetry() async throws {
    let scene = makeScene()
    let request = Sample.request([Sample.button("b")], mutationId: "m1")
    let first = try await scene.commit(request)
    let second = try await scene.commit(request)
    #expect(second.version == first.version)
    #expect(second.replayed)
    #expect(!first.replayed)
    #expect((await scene.snapshot()).version == 1)
  }

  @Test("I2 a remembered mutationId with different ops is rejected")
  func mutationIdReuseRejected() async throws {
    let scene = makeScene()
    try await scene.commit(Sample.request([Sample.button("b")], mutationId: "m1"))
    let error = await scene.expectFailure(Sample.request([Sample.button("c")], mutationId: "m1"), .invalidMutation)
    #expect(error?.field == "mutationId")
  }

  @Test("I3 a rejected mutation is not remembered: sending it again is a new attempt")
  func failuresNotRemembered() async throws {
    let scene = makeScene()
    let request = Sample.request([Sample.title("root", "T")], mutationId: "m1")
    _ = await scene.expectFailure(request, .itemNotFound)
    try await scene.commit(Sample.request([.push(Sample.item("root"), animated: false)]))
    #expect(try await scene.commit(request).version == 2)
  }

  @Test("I1 mutation ids are per client")
  func mutationIdsPerClient() async throws {
    let scene = makeScene()
    try await scene.commit(Sample.request([Sample.button("b")], client: "a", mutationId: "m1"))
    let other = try await scene.commit(Sample.request([Sample.button("c")], client: "b", mutationId: "m1"))
    #expect(!other.replayed)
    #expect(other.version == 2)
  }

  @Test("A store failure rolls back the whole group and fails its writers with StorageFailed")
  func storeFailureRollsBack() async throws {
    let store = RecordingStore()
    let scene = makeScene(store: store)
    try await scene.commit(Sample.request([Sample.button("kept")]))
    store.failNextCommit()
    _ = await scene.expectFailure(Sample.request([Sample.button("lost")], mutationId: "m"), .storageFailed)
    let (state, version) = await scene.snapshot()
    #expect(version == 1)
    #expect(!state.barButtonItems.contains("lost"))
    // The failed id was forgotten, so a retry commits.
    #expect(try await scene.commit(Sample.request([Sample.button("lost")], mutationId: "m")).version == 2)
    #expect(store.groups.flatMap { $0.map(\.version) } == [1, 2])
  }

  @Test("V3 concurrent mutations are committed in groups, each with its own version")
  func groupCommit() async throws {
    let store = RecordingStore()
    let scene = makeScene(store: store)
    try await withThrowingTaskGroup(of: MutationOutcome.self) { group in
      for i in 0..<50 { group.addTask { try await scene.commit(Sample.request([Sample.button("b\(i)")])) } }
      var versions: [UInt64] = []
      for try await outcome in group { versions.append(outcome.version) }
      #expect(versions.sorted() == Array(1...50))
    }
    #expect(store.groups.flatMap { $0.map(\.version) } == Array(1...50))
  }
}
