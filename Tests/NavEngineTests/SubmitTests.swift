import NavModel
import NavTestSupport
import Synchronization
import Testing

@testable import NavEngine

/// `submit`: mutations queued without a task of their own (PROTOCOL.md §2 "Pipelining"),
/// committed in submit order and in groups exactly as `mutate` commits them.
@Suite("Submitted mutations: one task per burst, not per call")
struct SubmitTests {
  /// Completions as they are called, in order, for a test to await.
  final class StreamAnswers: Sendable {
    let stream: AsyncStream<Result<MutationOutcome, NavError>>
    private let continuation: AsyncStream<Result<MutationOutcome, NavError>>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream() }

    /// A completion that records its result.
    var completion: SceneEngine.Completion { { [continuation] in continuation.yield($0) } }
  }

  @Test("PROTOCOL §2 a burst submitted while a group is stored is the next group, in submit order, each answered once")
  func burstIsOneGroupInOrder() throws {
    let held = HeldScene()
    held.submit(Sample.request([.push(Sample.item("inbox"), animated: false)]), 0)
    #expect(held.store.groups == [[1]])
    for (index, title) in ["b", "c", "d"].enumerated() {
      held.submit(Sample.request([Sample.title("inbox", title)]), index + 1)
    }
    #expect(held.store.groups == [[1]], "nothing more is stored while a group is")
    held.finish()
    #expect(try held.answers[0]?.get().version == 1)
    #expect(held.store.groups == [[2, 3, 4]], "the three submitted meanwhile: one group")
    #expect(held.answers.count == 1)
    held.finish()
    for index in 1...3 { #expect(try held.answers[index]?.get().version == UInt64(index + 1)) }
    let (state, version) = held.read { $0.snapshot() }
    #expect(version == 4)
    #expect(state.navigationBar.items.map(\.title) == ["d"], "applied in submit order")
  }

  @Test("PROTOCOL §2 a burst submitted to an idle scene in one turn is one group; groupCapacity splits it in order")
  func idleBurstIsOneGroup() throws {
    let held = HeldScene()
    let burst = { (indices: Range<Int>) in
      held.executor.onExecutor {
        for index in indices {
          held.scene.submit(Sample.request([Sample.button("b\(index)")]), completion: held.answers.completion(index))
        }
      }
    }
    burst(0..<3)
    #expect(held.store.groups.isEmpty, "the first call asks for a turn; it does not start a group")
    #expect(held.executor.pendingCount == 1, "one turn asked for, not one per call")
    held.executor.runAll()
    #expect(held.store.groups == [[1, 2, 3]])
    held.finish()
    #expect((0..<3).map { try? held.answers[$0]?.get().version } == [1, 2, 3])
    // A subscribed view whose document is half a group's budget: two mutations per group.
    let subscriber = TestSubscriber(id: 1)
    try held.read { scene in
      try scene.subscribe(subscriber.subscriber, view: .state, sinceVersion: nil)
      scene.core.groups[.state]?.withGroup { $0.documentBytes = SceneCore.groupDocumentBytes / 2 }
      #expect(scene.core.groupCapacity == 2)
    }
    burst(3..<8)
    held.executor.runAll()
    #expect(held.store.groups == [[4, 5]])
    for expected in [[6, 7], [8]] as [[UInt64]] {
      held.finish()
      #expect(held.store.groups == [expected])
    }
    held.finish()
    #expect((3..<8).map { try? held.answers[$0]?.get().version } == [4, 5, 6, 7, 8])
  }

  @Test("V2 a submitted mutation creates its scene; a refused one leaves no scene and no slot")
  func submitCreatesScenes() async throws {
    var configuration = EngineConfiguration()
    configuration.maxScenes = 2
    let engine = Engine(configuration: configuration, store: InMemorySceneStore())
    let answers = StreamAnswers()
    var answered = answers.stream.makeAsyncIterator()
    engine.submit(scene: "fresh", Sample.request([Sample.title("nowhere", "x")]), completion: answers.completion)
    #expect(try #require(await answered.next()).failureValue?.code == .itemNotFound)
    #expect(engine.sceneNames == ["main"])
    engine.submit(scene: "bad name", Sample.request([Sample.button("b")]), completion: answers.completion)
    #expect(try #require(await answered.next()).failureValue?.field == "scene", "refused before reaching a scene")
    engine.submit(scene: "fresh", Sample.request([Sample.button("b")]), completion: answers.completion)
    #expect(try await answered.next()?.get().version == 1)
    #expect(engine.sceneNames == ["fresh", "main"])
    engine.submit(scene: "other", Sample.request([Sample.button("b")]), completion: answers.completion)
    #expect(try #require(await answered.next()).failureValue?.limit == "maxScenes")
  }

  @Test(
    "PROTOCOL §2 CONFLICTS V1-V4 I1 random requests submitted in bursts: the results and state that mutate gives one by one"
  )
  func randomBurstsMatchMutate() async throws {
    let seed = SplitMix64.testSeed(default: 0x5_0B31_7ED)
    var random = RandomMutations(seed: seed)
    let reference = makeScene()
    var requests: [MutationRequest] = []
    var expected: [Result<MutationOutcome, NavError>] = []
    for _ in 0..<400 {
      let (state, version) = await reference.snapshot()
      let retries = requests.filter { $0.mutationId != nil }
      // Some are retries: the same client, id and ops again (a replay, I1).
      let request =
        !retries.isEmpty && random.chance(0.15)
        ? random.pick(retries)
        : MutationRequest(
          ops: random.ops(seeing: state),
          baseVersion: random.chance(0.4) ? UInt64(random.pick(Array(0...Int(version)))) : nil,
          mutationId: random.chance(0.3) ? "m\(random.pick(Array(0..<40)))" : nil,
          policy: random.chance(0.3) ? .failOnConflict : .lastWriterWins, client: random.pick(["a", "b"]))
      requests.append(request)
      expected.append(await reference.mutate(request))
    }
    // The mix covers commits, errors, conflicts' overwrites and replays of a remembered id.
    #expect(expected.contains { $0.failureValue != nil }, "seed \(seed)")
    #expect(expected.contains { (try? $0.get())?.replayed == true }, "seed \(seed)")
    #expect(expected.contains { (try? $0.get())?.overwritten.isEmpty == false }, "seed \(seed)")
    let scene = makeScene()
    let answers = StreamAnswers()
    var answered = answers.stream.makeAsyncIterator()
    var results: [Result<MutationOutcome, NavError>] = []
    var next = 0
    while next < requests.count {
      let burst = min(requests.count - next, random.pick(Array(1...64)))
      for request in requests[next..<next + burst] { scene.submit(request, completion: answers.completion) }
      for _ in 0..<burst { results.append(try #require(await answered.next())) }
      next += burst
    }
    for (index, (result, reference)) in zip(results, expected).enumerated() {
      #expect(result == reference, "seed \(seed) (NAVD_TEST_SEED=\(seed)), request \(index): \(requests[index])")
    }
    let (state, version) = await scene.snapshot()
    let (referenceState, referenceVersion) = await reference.snapshot()
    #expect(version == referenceVersion && state == referenceState, "seed \(seed) (NAVD_TEST_SEED=\(seed))")
  }
}
