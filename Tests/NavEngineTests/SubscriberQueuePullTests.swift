import NavTestSupport
import Testing

@testable import NavEngine

/// `Subscriber.pull`'s two steps — `pulledFrames()`, the usual pull as bytes, then
/// `pulled()` when that declines — against `pulled()` alone, the general path.
@Suite("SubscriberQueue: pulledFrames() then pulled() pulls what pulled() alone does")
struct SubscriberQueuePullTests {
  /// What a pull sent, comparable: the frames, then what follows them.
  private enum Pulled: Equatable {
    case frames([UInt8])
    case coalesced([UInt8], from: UInt64, to: UInt64, sameDocuments: Bool)
    case dropped([UInt8], scene: String, count: Int, version: UInt64)
  }

  private static func pulled(_ action: SubscriberQueue.PullAction, reference: SubscriberQueue.PullAction? = nil)
    -> Pulled
  {
    switch action {
    case .nothing: return .frames([])
    case .send(let frames): return .frames(frames)
    case .coalesce(let frames, let from, let to):
      var same = true
      if let reference, case .coalesce(_, let referenceFrom, let referenceTo) = reference {
        same = from === referenceFrom && to === referenceTo
      }
      return .coalesced(frames, from: from.version, to: to.version, sameDocuments: same)
    case .reportDropped(let frames, let scene, let count, let version):
      return .dropped(frames, scene: scene, count: count, version: version)
    }
  }

  @Test(
    "§6 random subscribers and watchers, updates, events, activations, pulls, cancels: same pulls and state (seeded)")
  func twoStepsMatchGeneralPull() {
    let seed = SplitMix64.testSeed(default: 2_026_120_104)
    var random = SplitMix64(seed: seed)
    for trial in 0..<300 {
      let limit = random.int(1...400)
      let watcher = random.chance(30)
      // `general` pulls with `pulled()` alone; `twoSteps` as `Subscriber.pull` does.
      var general = SubscriberQueue(limit: limit)
      var twoSteps = SubscriberQueue(limit: limit)
      var current = VersionedDocument(version: UInt64(random.below(5)), document: .null)
      var lastUpdateFrom = current
      var version: UInt64 = 0
      for step in 0..<150 {
        let context = "seed \(seed), trial \(trial), step \(step)"
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        switch random.below(100) {
        case 0..<35 where watcher:
          version += 1
          let frame = bytes(random.int(1...60))
          let expected = general.activationPublished(frame, version: version)
          #expect(twoSteps.activationPublished(frame, version: version) == expected, "\(context): activation")
        case 0..<35:
          let next = VersionedDocument(version: current.version + UInt64(random.int(1...3)), document: .null)
          let update = bytes(random.int(1...120))
          let expected = general.updatePublished(update, from: current, to: next, previousFrom: lastUpdateFrom)
          let action = twoSteps.updatePublished(update, from: current, to: next, previousFrom: lastUpdateFrom)
          #expect(action == expected, "\(context): update")
          lastUpdateFrom = current
          current = next
        case 35..<50 where !watcher:
          let frame = bytes(random.int(1...60))
          let expected = general.eventsPublished(frame, newest: current, newestFrom: lastUpdateFrom)
          #expect(
            twoSteps.eventsPublished(frame, newest: current, newestFrom: lastUpdateFrom) == expected, "\(context)")
        case 35..<50, 50..<88:
          let expected = general.pulled()
          let pulled: Pulled
          if let frames = twoSteps.pulledFrames() {
            pulled = .frames(frames)
          } else {
            pulled = Self.pulled(twoSteps.pulled(), reference: expected)
          }
          #expect(pulled == Self.pulled(expected, reference: expected), "\(context): pulled")
        case 88..<98:
          if watcher {
            let first = bytes(random.int(1...40))
            #expect(twoSteps.watching(scene: "main", first: first) == general.watching(scene: "main", first: first))
          } else {
            let first = (0..<random.below(3)).map { _ in bytes(random.below(300)) }
            let expected = general.subscribed(first: first, base: current)
            #expect(twoSteps.subscribed(first: first, base: current) == expected, "\(context): subscribed")
          }
        default:
          #expect(twoSteps.cancelled() == general.cancelled(), "\(context): cancel")
        }
        #expect(twoSteps.pendingBytes == general.pendingBytes, "\(context): pending bytes")
        #expect(twoSteps.coalescedCount == general.coalescedCount, "\(context): coalesced count")
        #expect(twoSteps.deliveredVersion == general.deliveredVersion, "\(context): delivered version")
        #expect(twoSteps.isClosed == general.isClosed, "\(context): closed")
      }
    }
  }

  @Test("§6 pulledFrames() takes nothing when it declines: first frames, coalescing, dropped activations, closed")
  func declinesWithoutTaking() {
    var queue = SubscriberQueue(limit: 100)
    let base = VersionedDocument(version: 1, document: .null)
    #expect(queue.pulledFrames() == nil, "not yet open")
    _ = queue.subscribed(first: [[1, 2]], base: base)
    #expect(queue.pulledFrames() == nil, "the snapshot waits")
    #expect(queue.pendingBytes == 2)
    if case .send(let frames) = queue.pulled() { #expect(frames == [1, 2]) } else { Issue.record("expected .send") }
    #expect(queue.pulledFrames() == [], "open, nothing queued")
    let next = VersionedDocument(version: 2, document: .null)
    _ = queue.updatePublished(Array(repeating: 7, count: 200), from: base, to: next, previousFrom: base)
    #expect(queue.pulledFrames() == nil, "coalescing")
    #expect(queue.coalescedCount == 1)
    if case .coalesce(_, let from, let to) = queue.pulled() {
      #expect(from === base && to === next)
    } else {
      Issue.record("expected .coalesce")
    }
    _ = queue.cancelled()
    #expect(queue.pulledFrames() == nil, "closed")
  }
}
