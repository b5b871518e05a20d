import NavWire
import Varlink

/// The calls on one connection still waiting for replies, in the order they were sent.
///
/// Varlink has no sequence numbers: replies come in call order, so each reply belongs to the
/// oldest call still waiting. A pure state machine: events in (`callSent`, `replyReceived`,
/// `abandon`, `closed`), what to do out; `ClientConnection` does the IO and resumes waiters.
struct CallQueue<Waiter> {
  private enum Entry {
    /// A plain call; a nil waiter was abandoned (cancelled or timed out) and its reply is dropped.
    case call(id: UInt64, waiter: Waiter?)
    /// The streaming call; it stays until a reply without `continues`.
    case stream
  }

  /// Where a reply goes.
  enum Routing {
    /// Resume this call's waiter (nil: abandoned, drop the reply).
    case resume(Waiter?, VarlinkReply)
    /// Hand the reply to the stream; `ended` when it was the stream's final reply.
    case stream(VarlinkReply, ended: Bool)
    /// The peer broke the protocol; close the connection.
    case violation(String)
  }

  private var entries: [Entry] = []
  private var head = 0

  /// Calls still waiting.
  var count: Int { entries.count - head }

  mutating func callSent(id: UInt64, waiter: Waiter) {
    entries.append(.call(id: id, waiter: waiter))
  }

  mutating func streamSent() {
    entries.append(.stream)
  }

  mutating func replyReceived(_ reply: VarlinkReply) -> Routing {
    guard head < entries.count else { return .violation("navd sent a reply to no call") }
    switch entries[head] {
    case .call(_, let waiter):
      guard !reply.continues else { return .violation("navd sent \"continues\" to a call made without \"more\"") }
      pop()
      return .resume(waiter, reply)
    case .stream:
      if !reply.continues { pop() }
      return .stream(reply, ended: !reply.continues)
    }
  }

  /// Detaches call `id`'s waiter so its reply will be dropped; nil when it is not waiting
  /// (already answered, or not sent yet).
  mutating func abandon(_ id: UInt64) -> Waiter? {
    for index in head..<entries.count {
      guard case .call(id, let waiter) = entries[index] else { continue }
      entries[index] = .call(id: id, waiter: nil)
      return waiter
    }
    return nil
  }

  /// The connection is gone: every waiter still attached, to be failed.
  mutating func closed() -> [Waiter] {
    var waiters: [Waiter] = []
    for case .call(_, let waiter?) in entries[head...] { waiters.append(waiter) }
    entries = []
    head = 0
    return waiters
  }

  private mutating func pop() {
    head += 1
    if head == entries.count {
      entries.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64, head * 2 >= entries.count {
      entries.removeFirst(head)
      head = 0
    }
  }
}
