import NavTestSupport
import Testing

@testable import NavEngine

/// `SubscriberQueue`, which holds the document the client was last sent only once it has
/// fallen behind (taking it from what the view passes along), against the simple queue it
/// replaced: one that kept that document (`base`) and the newest one current itself, on
/// every update and every pull.
@Suite("SubscriberQueue: the same pulls as a queue that keeps its own documents")
struct SubscriberQueueReferenceTests {
  @Test("§6 a subscriber holds no document per pending update: only the one it was last sent, once behind")
  func documentsHeld() {
    var queue = SubscriberQueue(limit: 1000)
    var current = VersionedDocument(version: 1, document: ["title": "v1"])
    var lastUpdateFrom = current
    _ = queue.subscribed(first: [[0]], base: current)
    _ = queue.pulled()
    weak let sent = current
    var published: [() -> VersionedDocument?] = []
    // What the view's group does for each update: it then holds only its last two documents.
    func publish(_ bytes: [UInt8]) -> SubscriberQueue.Action {
      let next = VersionedDocument(version: current.version + 1, document: ["title": .string("\(current.version + 1)")])
      let action = queue.updatePublished(bytes, from: current, to: next, previousFrom: lastUpdateFrom)
      weak let document = next
      published.append { document }
      (lastUpdateFrom, current) = (current, next)
      return action
    }
    for _ in 2...50 { #expect(publish([1]) == .wake) }
    #expect(published.compactMap { $0()?.version } == [49, 50], "no document is kept per pending update")
    #expect(sent?.version == 1, "the document the client was last sent is kept, to coalesce from")
    _ = publish(Array(repeating: 1, count: 2000))
    if case .coalesce(_, let from, let to) = queue.pulled() {
      #expect(from.version == 1 && to.version == 51)
    } else {
      Issue.record("expected a coalesced pull")
    }
    // Keeping up: after each pull the queue holds no document of its own.
    for _ in 0..<3 {
      _ = publish([1])
      _ = queue.pulled()
    }
    #expect(published.compactMap { $0()?.version } == [53, 54], "a subscriber that keeps up holds no document")
  }

  @Test("§6 random updates, events, pulls and cancels: same frames, coalesced documents, counts (seeded)")
  func matchesReference() {
    let seed = SplitMix64.testSeed(default: 20_261_201)
    var random = SplitMix64(seed: seed)
    for trial in 0..<300 {
      let limit = random.int(1...400)
      var queue = SubscriberQueue(limit: limit)
      var reference = ReferenceQueue(limit: limit)
      var current = VersionedDocument(version: UInt64(random.below(5)), document: .null)
      // What the view's group passes along: the document its last update led from.
      var lastUpdateFrom = current
      var subscribed = false
      for step in 0..<150 {
        let context = "seed \(seed), trial \(trial), step \(step)"
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        switch random.below(100) {
        case 0..<40:
          let next = VersionedDocument(version: current.version + UInt64(random.int(1...3)), document: .null)
          let update = bytes(random.int(1...120))
          let action = queue.updatePublished(update, from: current, to: next, previousFrom: lastUpdateFrom)
          #expect(action == reference.updatePublished(update, newest: next), "\(context): update")
          lastUpdateFrom = current
          current = next
        case 40..<55:
          let frame = bytes(random.int(1...60))
          let action = queue.eventsPublished(frame, newest: current, newestFrom: lastUpdateFrom)
          #expect(action == reference.eventsPublished(frame), "\(context): events")
        case 55..<90:
          let pulled = queue.pulled()
          let expected = reference.pulled()
          switch (pulled, expected) {
          case (.nothing, nil): break
          case (.send(let frames), .some(let expected)) where expected.coalesce == nil:
            #expect(frames == expected.frames, "\(context): frames")
          case (.coalesce(let frames, let from, let to), .some(let expected)):
            #expect(frames == expected.frames, "\(context): frames before the coalesced update")
            #expect(from === expected.coalesce?.from && to === expected.coalesce?.to, "\(context): documents")
          default: Issue.record("\(context): pulled \(pulled), expected \(String(describing: expected))")
          }
        case 90..<99:
          guard !subscribed else { continue }
          subscribed = true
          let first = (0..<random.below(3)).map { _ in bytes(random.below(300)) }
          #expect(queue.subscribed(first: first, base: current) == reference.subscribed(first: first, base: current))
        default:
          #expect(queue.cancelled() == reference.cancelled(), "\(context): cancel")
        }
        #expect(queue.pendingBytes == reference.pendingBytes, "\(context): pending bytes")
        #expect(queue.coalescedCount == reference.coalescedCount, "\(context): coalesced count")
        #expect(queue.deliveredVersion == reference.deliveredVersion, "\(context): delivered version")
        #expect(queue.isClosed == reference.closed, "\(context): closed")
      }
    }
  }
}

/// The subscriber queue as it was: it held `base` (the document the client has once the
/// frames it was committed to are sent) and `newest` (set on every update).
private struct ReferenceQueue {
  let limit: Int
  var open = false
  var closed = false
  var head: [[UInt8]] = []
  var tail: [[UInt8]] = []
  var base: VersionedDocument?
  var newest: VersionedDocument?
  var coalescing = false
  var coalescedCount = 0
  var deliveredVersion: UInt64?

  init(limit: Int) { self.limit = limit }

  var pendingBytes: Int { open ? (head + tail).reduce(0) { $0 + $1.count } : 0 }
  var notOpen: SubscriberQueue.Action { closed ? .remove : .none }

  mutating func subscribed(first: [[UInt8]], base: VersionedDocument) -> SubscriberQueue.Action {
    guard !open, !closed else { return notOpen }
    open = true
    head = first
    self.base = base
    newest = base
    return first.isEmpty ? .none : .wake
  }

  mutating func updatePublished(_ update: [UInt8], newest: VersionedDocument) -> SubscriberQueue.Action {
    guard open else { return notOpen }
    self.newest = newest
    return coalescing ? .none : queue(update)
  }

  mutating func eventsPublished(_ frame: [UInt8]) -> SubscriberQueue.Action {
    guard open else { return notOpen }
    return coalescing ? .none : queue(frame)
  }

  private mutating func queue(_ frame: [UInt8]) -> SubscriberQueue.Action {
    if pendingBytes + frame.count > limit {
      tail = []
      coalescing = true
      coalescedCount += 1
    } else {
      tail.append(frame)
    }
    return .wake
  }

  /// The frames, and the coalesced update's documents; nil when nothing is sent.
  mutating func pulled() -> (frames: [UInt8], coalesce: (from: VersionedDocument, to: VersionedDocument)?)? {
    guard open else { return nil }
    let frames = Array((head + tail).joined())
    head = []
    tail = []
    var result: (frames: [UInt8], coalesce: (from: VersionedDocument, to: VersionedDocument)?)?
    if coalescing, let base, let newest, base.version != newest.version {
      result = (frames, (base, newest))
    } else {
      result = frames.isEmpty ? nil : (frames, nil)
    }
    coalescing = false
    base = newest
    deliveredVersion = newest?.version
    return result
  }

  mutating func cancelled() -> SubscriberQueue.Action {
    if closed { return .none }
    (open, closed, head, tail, base, newest, coalescing) = (false, true, [], [], nil, nil, false)
    return .remove
  }
}
