import NavModel
import Varlink

/// Who is on the other end of a connection, read once at accept (SO_PEERCRED and
/// SO_PEERGROUPS): the identity the access policy decides on.
public struct PeerCredentials: Sendable, Hashable {
  /// The peer's pid when it connected.
  public var pid: Int32
  /// The peer's effective uid.
  public var uid: UInt32
  /// The peer's effective primary gid.
  public var gid: UInt32
  /// The peer's supplementary groups (empty when unknown).
  public var groups: [UInt32]

  /// Creates credentials.
  public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
    self.groups = groups
  }
}

/// Where a streaming call's replies come from.
///
/// The connection *pulls*: whenever its socket can take more output (its
/// buffer is under the low-water mark) it asks the source for everything that
/// is pending, and writes it in one `write`. A source that is not drained fast
/// enough can therefore coalesce what it holds instead of growing memory.
public protocol ReplySource: AnyObject, Sendable {
  /// Called on the event-loop thread; must not block. Returns complete
  /// encoded frames (each NUL-terminated), possibly several, or an empty array
  /// when nothing is pending. `finished` ends the call: the last frame
  /// returned with it must be a final reply (no `continues`) or an error.
  func pull() -> (bytes: [UInt8], finished: Bool)

  /// The connection closed (peer gone, or navd disconnected it) before the
  /// source finished. Called once, on the event-loop thread; release resources.
  func cancelled()

  /// Whether the stream may finish by itself. A message the client sends behind a stream
  /// that never does could never be answered, so the connection treats it as a protocol
  /// error (PROTOCOL.md §9.20); behind a finite stream it waits its turn.
  var endsOnItsOwn: Bool { get }

  /// Bytes the source holds for the client beyond what it returned from `pull` (a
  /// subscriber's queue): counted with the connection's output against its uid's
  /// output limit (`ServerConfiguration.maxOutputBytesPerUser`), so a stream that is not
  /// read cannot hold memory the limit does not see. Called on the loop, only while
  /// output waits.
  var queuedBytes: Int { get }

  /// For a restart that hands connections over (`VarlinkServer.stopForHandOver`): the
  /// parameters to merge into the call that started this stream so that the next
  /// process, repeating the call, continues where this one stopped (e.g. `sinceVersion`).
  /// nil: the stream cannot be carried over. Called on the loop, after the last pull.
  func handOverParameters() -> [String: JSONValue]?
}

extension ReplySource {
  /// Streams finish by themselves unless a source says otherwise.
  public var endsOnItsOwn: Bool { true }

  /// By default a source holds nothing beyond what it returned.
  public var queuedBytes: Int { 0 }

  /// By default a stream cannot be carried over a restart.
  public func handOverParameters() -> [String: JSONValue]? { nil }
}

/// One call in progress and the way back to its connection. Thread-safe:
/// the engine answers from its actors.
///
/// Exactly one of `reply`, `fail` or `stream` ends (or, for `stream`, takes
/// over) the call. A connection may have several pipelined calls in flight
/// (`ServerConfiguration.maxCallsInFlight`), so calls may end in any order; the
/// connection writes each reply only after every earlier call's, so replies keep
/// the order of the calls. For a `oneway` call, `reply` and `fail` only end the
/// call; nothing is sent.
public protocol CallContext: Sendable {
  /// Who made the call (uid, gid, groups, pid), as read at accept.
  var peer: PeerCredentials { get }
  /// Unique for the life of the navd process.
  var connectionID: UInt64 { get }
  /// Sends the final reply `{"parameters": parameters}`.
  func reply(_ parameters: JSONValue)
  /// Sends the final reply of a typed value; the same as `reply(reply.parameters)`, but a
  /// context that writes the frame itself encodes it straight to bytes.
  func reply<Reply: VarlinkReplyParameters>(_ reply: Reply)
  /// Sends the error reply `{"error": error.errorName, "parameters": error.errorParameters}`.
  func fail(_ error: some VarlinkError)
  /// Hands the call over to a streaming source (the call must have `more`).
  func stream(from source: any ReplySource)
  /// Tells the connection its source has new data; cheap, callable from any thread.
  func sourceHasData()
  /// `sourceHasData` as a closure, for a source that signals on every update to keep.
  /// By default it calls `sourceHasData` through the protocol; a context may give one
  /// that calls its own method directly (`ConnectionCallContext` does: the closure over
  /// the existential, its thunks and witness cost ~45 instructions per subscriber per
  /// publish, callgrind).
  var sourceHasDataSignal: @Sendable () -> Void { get }
  /// Disconnects the client, logging `reason` once.
  func close(reason: String)
  /// The server's counters now (GetServerInfo reports them).
  var serverStatistics: ServerStatistics { get }
}

extension CallContext {
  /// Calls `sourceHasData()`.
  public var sourceHasDataSignal: @Sendable () -> Void { { self.sourceHasData() } }

  /// Replies with the value's parameters.
  public func reply<Reply: VarlinkReplyParameters>(_ reply: Reply) { self.reply(reply.parameters) }

  /// No server behind the context (in-memory tests): every count is zero.
  public var serverStatistics: ServerStatistics {
    ServerStatistics(openConnections: 0, rejectingConnections: 0, acceptedTotal: 0, rejectedTotal: 0)
  }
}

/// The service behind the server (navd: io.navd, NavService's `NavdService`): receives
/// every call not addressed to `org.varlink.service`.
public protocol CallHandler: Sendable {
  /// Called on the event-loop thread; must return at once (hand the work to
  /// an actor). Every call must eventually be ended through `context`.
  func handle(_ call: VarlinkCall, context: any CallContext)

  /// Work on a call that depends on nothing but the call itself — decoding its
  /// parameters into `call.decoded` — done before `handle`. The server calls it for a
  /// frame of at least `ServerConfiguration.offLoopParseBytes`, on another thread than the
  /// loop's, so a large message's decoding does not hold the other connections up; a
  /// smaller call goes to `handle` as it is. Must not touch the handler's state.
  func prepare(_ call: inout VarlinkCall)

  /// The connection `connectionID` closed (its peer left, or navd closed or handed it over):
  /// the handler lets go of what it kept for it across calls. Called on the event-loop thread.
  func connectionClosed(_ connectionID: UInt64)
}

extension CallHandler {
  /// By default nothing is decoded ahead: `handle` does it all.
  public func prepare(_ call: inout VarlinkCall) {}
  /// By default nothing is kept across calls.
  public func connectionClosed(_ connectionID: UInt64) {}
}
