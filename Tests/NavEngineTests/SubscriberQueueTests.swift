import NavModel
import Testing

@testable import NavEngine

/// The subscriber queue as a pure state machine (PROTOCOL.md §6, "Bounded memory").
@Suite("SubscriberQueue: one owner, bounded, snapshot first")
struct SubscriberQueueTests {
  static func document(_ title: String) -> VersionedDocument {
    VersionedDocument(version: UInt64(title.count), document: ["title": .string(title)])
  }

  static func bytes(_ n: Int) -> [UInt8] { Array(repeating: UInt8(ascii: "x"), count: n) }

  @Test("§6 past the limit, updates are dropped for one coalesced diff at pull time; the snapshot stays first")
  func snapshotSurvivesCoalescing() {
    var queue = SubscriberQueue(limit: 1000)
    let snapshot = Self.bytes(5000)
    #expect(queue.subscribed(first: [snapshot], base: Self.document("a")) == .wake)
    for n in 2...50 {
      _ = queue.updatePublished(
        Self.bytes(100), from: Self.document(String(repeating: "a", count: n - 1)),
        to: Self.document(String(repeating: "a", count: n)),
        previousFrom: Self.document(String(repeating: "a", count: max(1, n - 2))))
      #expect(queue.pendingBytes <= snapshot.count, "only the snapshot is kept once over the limit")
    }
    #expect(queue.coalescedCount == 1)
    guard case .coalesce(let frames, let from, let to) = queue.pulled() else {
      Issue.record("expected a coalesced pull")
      return
    }
    #expect(frames == snapshot)
    #expect(from.version == 1)
    #expect(to.version == 50)
    #expect(queue.pendingBytes == 0)
    if case .nothing = queue.pulled() {} else { Issue.record("a second pull has nothing") }
  }

  @Test("§6 below the limit every update is sent in order, and the client is then at the newest")
  func updatesInOrder() {
    var queue = SubscriberQueue(limit: 1000)
    _ = queue.subscribed(first: [[1]], base: Self.document("a"))
    _ = queue.updatePublished(
      [2], from: Self.document("a"), to: Self.document("ab"),
      previousFrom: Self.document("a"))
    _ = queue.updatePublished(
      [3], from: Self.document("ab"), to: Self.document("abc"),
      previousFrom: Self.document("a"))
    guard case .send(let frames) = queue.pulled() else {
      Issue.record("expected frames")
      return
    }
    #expect(frames == [1, 2, 3])
    // Overflow now coalesces from version 3 (what was sent), not from the snapshot.
    _ = queue.updatePublished(
      Self.bytes(2000), from: Self.document("abc"), to: Self.document("abcd"),
      previousFrom: Self.document("ab"))
    guard case .coalesce(let rest, let from, let to) = queue.pulled() else {
      Issue.record("expected a coalesced pull")
      return
    }
    #expect(rest.isEmpty)
    #expect(from.version == 3)
    #expect(to.version == 4)
  }

  @Test("#9 a lone update chunk is handed to the connection as the engine's own bytes, not a copy")
  func loneChunkIsShared() {
    var queue = SubscriberQueue(limit: 1 << 20)
    _ = queue.subscribed(first: [[1]], base: Self.document("a"))
    _ = queue.pulled()
    let chunk = Self.bytes(4096)
    _ = queue.updatePublished(
      chunk, from: Self.document("a"), to: Self.document("ab"),
      previousFrom: Self.document("a"))
    guard case .send(let frames) = queue.pulled() else {
      Issue.record("expected frames")
      return
    }
    let same = frames.withUnsafeBufferPointer { pulled in
      chunk.withUnsafeBufferPointer { queued in pulled.baseAddress == queued.baseAddress }
    }
    #expect(same, "the subscriber's pull shares the storage of the chunk every subscriber of the view was given")
    // Two chunks are joined, in order.
    _ = queue.updatePublished(
      [7], from: Self.document("ab"), to: Self.document("abc"),
      previousFrom: Self.document("a"))
    _ = queue.updatePublished(
      [8, 9], from: Self.document("abc"), to: Self.document("abcd"),
      previousFrom: Self.document("ab"))
    #expect(queue.pendingBytes == 3)
    guard case .send(let joined) = queue.pulled() else {
      Issue.record("expected frames")
      return
    }
    #expect(joined == [7, 8, 9])
  }

  @Test("A cancelled queue releases everything and tells the engine to forget it on every later event")
  func cancelled() {
    var queue = SubscriberQueue(limit: 1000)
    _ = queue.subscribed(first: [[1]], base: Self.document("a"))
    #expect(queue.cancelled() == .remove)
    #expect(queue.cancelled() == .none)
    #expect(queue.pendingBytes == 0)
    #expect(
      queue.updatePublished(
        [2], from: Self.document("a"), to: Self.document("ab"),
        previousFrom: Self.document("a")) == .remove)
    #expect(queue.eventsPublished([2], newest: Self.document("ab"), newestFrom: Self.document("a")) == .remove)
    #expect(queue.activationPublished([2], version: 1) == (.closed, .remove))
    if case .nothing = queue.pulled() {} else { Issue.record("a cancelled queue has nothing to pull") }
  }

  @Test("§3 WatchActions: past the limit activations are refused and counted, then reported in one dropped frame")
  func watcherDrops() {
    var queue = SubscriberQueue(limit: 100)
    #expect(queue.watching(scene: "main", first: Self.bytes(10)) == .wake)
    var queued = 0
    var dropped = 0
    for version in 1...100 as ClosedRange<UInt64> {
      switch queue.activationPublished(Self.bytes(30), version: version).0 {
      case .queued: queued += 1
      case .dropped: dropped += 1
      case .closed: Issue.record("not closed")
      }
      #expect(queue.pendingBytes <= 100)
    }
    #expect(queued == 3)
    guard case .reportDropped(let frames, let scene, let count, let version) = queue.pulled() else {
      Issue.record("expected a dropped report")
      return
    }
    #expect(frames.count == 10 + 30 * queued, "the watching frame and every queued activation")
    #expect(scene == "main")
    #expect(count == dropped)
    #expect(version == 100)
    #expect(queue.activationPublished(Self.bytes(30), version: 101).0 == .queued, "room again after the pull")
  }
}
