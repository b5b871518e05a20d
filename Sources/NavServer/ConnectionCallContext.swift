import NavModel
import Synchronization
import Varlink

/// The `CallContext` of one dispatched call: encodes answers on the caller's thread and
/// posts them to the event loop, which checks they belong to the call still running
/// (late or duplicate answers are dropped).
final class ConnectionCallContext: CallContext {
  let peer: PeerCredentials
  let connectionID: UInt64
  let serial: UInt64
  let oneway: Bool
  let method: String
  private let inbox: LoopInbox
  private let log: Log
  private let counters: ServerCounters
  private let rejectionSummary: @Sendable (String, JSONValue) -> RejectionSummary
  /// Set while a `sourceHasData` message is queued, so a burst of updates posts once.
  let dataSignalPending = Atomic<Bool>(false)
  /// The connection whose stream this call's source feeds, for `sourceHasData` on the
  /// loop thread: set when the stream starts (other calls never signal), nil once this is
  /// no longer the connection's current context (`Connection.context` clears it, which
  /// also breaks the reference cycle between the two).
  ///
  /// Strong, not weak: a weak reference moves the connection's reference counts to a
  /// side table, and every retain and release of it then takes the slow path (callgrind,
  /// 64 subscribers: +40,000 instructions per publish). `nonisolated(unsafe)`: touched on
  /// the loop thread only.
  @exclusivity(unchecked) nonisolated(unsafe) var connection: Connection?

  init(
    peer: PeerCredentials, connectionID: UInt64, serial: UInt64, oneway: Bool, method: String, inbox: LoopInbox,
    log: Log, counters: ServerCounters, rejectionSummary: @escaping @Sendable (String, JSONValue) -> RejectionSummary
  ) {
    self.counters = counters
    self.rejectionSummary = rejectionSummary
    self.peer = peer
    self.connectionID = connectionID
    self.serial = serial
    self.oneway = oneway
    self.method = method
    self.inbox = inbox
    self.log = log
  }

  var serverStatistics: ServerStatistics { counters.snapshot }

  func reply(_ parameters: JSONValue) {
    let frame = oneway ? [] : VarlinkReply.encoded(parameters: parameters)
    inbox.post(.replied(connection: connectionID, serial: serial, frame: frame))
  }

  func reply<Reply: VarlinkReplyParameters>(_ reply: Reply) {
    let frame = oneway ? [] : VarlinkReply.encoded(reply)
    inbox.post(.replied(connection: connectionID, serial: serial, frame: frame))
  }

  func fail(_ error: some VarlinkError) {
    let name = error.errorName
    let parameters = error.errorParameters
    log.callRejected(
      method: method, error: name, summary: rejectionSummary(name, parameters), peer: peer, connection: connectionID)
    let frame = oneway ? [] : VarlinkReply.encoded(parameters: parameters, error: name)
    inbox.post(.replied(connection: connectionID, serial: serial, frame: frame))
  }

  func stream(from source: any ReplySource) {
    inbox.post(.streamStarted(connection: connectionID, serial: serial, source: source))
  }

  func sourceHasData() {
    // Published on the loop thread (the usual case): mark the connection directly.
    if inbox.isLoopThread, let connection {
      inbox.signalOnLoop(connection, serial: serial)
      return
    }
    // Only the first signal of a burst posts; the loop clears the flag before it pulls.
    guard !dataSignalPending.exchange(true, ordering: .acquiringAndReleasing) else { return }
    inbox.post(.sourceHasData(connection: connectionID, serial: serial, context: self))
  }

  /// `sourceHasData()` called on this class directly, not through `CallContext`.
  var sourceHasDataSignal: @Sendable () -> Void { { [self] in sourceHasData() } }

  func close(reason: String) {
    inbox.post(.close(connection: connectionID, reason: reason))
  }
}

extension Log {
  /// One line for every call answered with an error: what was asked, what was wrong (as the
  /// service's `summary` says), who asked.
  func callRejected(
    method: String, error: String, summary: RejectionSummary, peer: PeerCredentials, connection: UInt64
  ) {
    var fields: [(key: String, value: String)] = [("method", method), ("error", error)]
    fields += summary.fields
    fields += [
      ("connection", String(connection)), ("pid", String(peer.pid)), ("uid", String(peer.uid)),
      ("gid", String(peer.gid)),
    ]
    info("call rejected: \(summary.message)", fields)
  }
}
