import Varlink

/// One accepted client connection, as the event loop sees it: the socket, who is on
/// the other end, and the protocol state machine that decides what happens.
///
/// Only the event-loop thread touches it, one property access at a time, so its
/// mutable properties are exempt from run-time exclusivity checks
/// (`@exclusivity(unchecked)`): they cost ~11 `swift_beginAccess` per subscriber per
/// publish, ~12% of navd's instructions at 64 subscribers (callgrind).
final class Connection {
  /// Unique for the life of the process (`CallContext.connectionID`).
  let id: UInt64
  let fd: Int32
  let peer: PeerCredentials
  @exclusivity(unchecked) var machine: StateMachine
  /// Whether it counts against `maxConnections` (false while it is being rejected).
  let countsTowardLimit: Bool
  /// What epoll currently watches for this socket.
  @exclusivity(unchecked) var interest: Epoll.Interest
  /// Still registered with epoll (removed after a hang-up so EPOLLHUP cannot spin the loop).
  @exclusivity(unchecked) var registered = true
  /// The peer hung up both directions.
  @exclusivity(unchecked) var hungUp = false
  /// Context of the call in progress, for clearing its data-signal flag before a pull.
  /// A context replaced (or cleared at close or hand-over) forgets this connection, so a
  /// late signal from it finds no connection and the two do not keep each other alive.
  @exclusivity(unchecked) var context: ConnectionCallContext? {
    didSet { if oldValue !== context { oldValue?.connection = nil } }
  }
  /// The streaming call whose source signalled this pass, delivered in the fan-out step.
  @exclusivity(unchecked) var signalledSerial: UInt64?
  /// Still served by this loop: false once closed or handed over, so the loop's lists of
  /// connections to visit later in a pass (`signalled`, `fanOut`) skip it.
  @exclusivity(unchecked) var attached = true
  /// The bytes of output last counted for it in the loop's `PerUserLimits`.
  @exclusivity(unchecked) var outputCounted = 0
  /// Listed in the loop's `fanOut` for this pass.
  @exclusivity(unchecked) var inFanOut = false
  /// Listed in the loop's `dirty` for this pass.
  @exclusivity(unchecked) var isDirty = false
  /// The last call given to the handler: for a stream, the call a successor repeats.
  @exclusivity(unchecked) var handlerCall: VarlinkCall?

  init(id: UInt64, fd: Int32, peer: PeerCredentials, machine: StateMachine, countsTowardLimit: Bool) {
    self.id = id
    self.fd = fd
    self.peer = peer
    self.machine = machine
    self.countsTowardLimit = countsTowardLimit
    self.interest = Epoll.Interest(read: true, write: false)
  }

  /// Fields identifying the connection in log records.
  var logFields: [(key: String, value: String)] {
    [("connection", String(id)), ("pid", String(peer.pid)), ("uid", String(peer.uid))]
  }
}
