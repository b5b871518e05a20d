import NavModel
import Synchronization
import Testing

@testable import NavEngine

/// Issue 27 item 10: a commit group is bounded in the bytes its records store
/// (`EngineConfiguration.groupRecordBytes`), and a scene plans its next group in a later pass
/// of its executor, so a client streaming large `Mutate`s does not hold the loop from others
/// for a whole burst (PROTOCOL.md §2 "Pipelining").
@Suite("Commit groups bounded in record bytes")
struct GroupRecordBytesTests {
  /// What happened, in order: each group stored ("commit 1,2") and each answer ("answer 0").
  final class Events: Sendable {
    private let list = Mutex<[String]>([])
    func append(_ event: String) { list.withLock { $0.append(event) } }
    /// Everything since the last call.
    func take() -> [String] {
      list.withLock { list in
        defer { list = [] }
        return list
      }
    }
  }

  /// A store that finishes each group at once, as navd's redo log does, and lists it.
  final class EventStore: SceneStore {
    let events: Events
    init(_ events: Events) { self.events = events }
    func load() throws(StoreError) -> [StoredScene] { [] }
    func commit(_ records: [CommitRecord], waiter: any StoreWaiter) -> Result<Void, StoreError>? {
      events.append("commit " + records.map { "\($0.version)" }.joined(separator: ","))
      return .success(())
    }
  }

  /// A mutation of four bar button items with long titles (~1 KiB of ops), or of one short one.
  static func request(_ index: Int, large: Bool) -> MutationRequest {
    let ops =
      large
      ? (0..<4).map { Sample.button("large\(index)-\($0)", title: String(repeating: "t", count: 200)) }
      : [Sample.button("small\(index)")]
    return Sample.request(ops)
  }

  static let sizes = [true, true, false, false, true, false]
  static var requests: [MutationRequest] { sizes.enumerated().map { request($0, large: $1) } }
  /// The ops bytes of one large request: the bound the test sets, so each reaches it alone.
  static var largeBytes: Int { EncodedOps(request(0, large: true).ops).bytes.count }

  @Test(
    "issue 27 PROTOCOL §2 a burst of large mutations is split into groups of at most groupRecordBytes of ops (at least one mutation each), one per pass, with the answers and state of one by one"
  )
  func largeBurstSplitsByBytes() async throws {
    let events = Events()
    let executor = ManualSceneExecutor()
    let scene = makeScene(store: EventStore(events), executor: executor) {
      $0.groupRecordBytes = Self.largeBytes
    }
    let otherEvents = Events()
    let other = makeScene(store: EventStore(otherEvents), executor: executor)
    let answers = Answers()
    executor.onExecutor {
      for (index, request) in Self.requests.enumerated() {
        let record = answers.completion(index)
        scene.submit(request) { result in
          record(result)
          events.append("answer \(index)")
        }
      }
    }
    executor.runPass()
    #expect(events.take() == ["commit 1", "answer 0"], "one large mutation reaches the bound: the pass ends")
    // Another client's call, read by the loop's next pass (on its thread, before that pass's
    // messages), is answered before the next group.
    executor.onExecutor {
      other.submit(Sample.request([Sample.button("other")])) { _ in events.append("other answered") }
    }
    executor.runPass()
    #expect(events.take() == ["other answered", "commit 2", "answer 1"])
    executor.runPass()
    #expect(
      events.take() == ["commit 3,4,5", "answer 2", "answer 3", "answer 4"],
      "small mutations join a group until its ops reach the bound")
    executor.runAll()
    #expect(events.take() == ["commit 6", "answer 5"])
    #expect(otherEvents.take() == ["commit 1"])
    // The same requests one by one: the same results, the same state.
    let reference = makeScene()
    for (index, request) in Self.requests.enumerated() {
      #expect(await reference.mutate(request) == answers[index], "request \(index)")
    }
    let (state, version) = executor.onExecutor { scene.assumeIsolated { $0.snapshot() } }
    let (referenceState, referenceVersion) = await reference.snapshot()
    #expect(version == referenceVersion)
    #expect(state == referenceState)
  }

  @Test("issue 27 PROTOCOL §2 a burst whose ops stay under groupRecordBytes (the default) is one group, in one pass")
  func smallBurstIsOneGroup() {
    let events = Events()
    let executor = ManualSceneExecutor()
    let scene = makeScene(store: EventStore(events), executor: executor)
    executor.onExecutor {
      for (index, request) in Self.requests.enumerated() {
        scene.submit(request) { _ in events.append("answer \(index)") }
      }
    }
    executor.runPass()
    #expect(events.take() == ["commit 1,2,3,4,5,6"] + Self.requests.indices.map { "answer \($0)" })
    #expect(executor.pendingCount == 0)
  }
}
