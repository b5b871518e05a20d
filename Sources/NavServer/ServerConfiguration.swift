import NavModel
import Varlink

/// Every limit and knob of the Varlink server, with documented defaults.
///
/// The defaults follow what trusted daemons do (systemd's varlink: 4096 connections,
/// 16 MiB output buffer); see the per-field comments for what happens at each limit.
public struct ServerConfiguration: Sendable {
  /// Where the server listens.
  public enum Listener: Sendable, Equatable {
    /// Bind a new socket at this filesystem path (the caller prepares the path first,
    /// see `SocketPath`). The file is removed again when the server stops.
    case path(String)
    /// Use an already listening socket (socket activation); it is not unlinked on stop.
    case fileDescriptor(Int32, path: String?)
  }

  /// Where to listen.
  public var listener: Listener

  /// Mode of the socket file when binding a path. Default 0600: only the owner may connect.
  public var socketMode: UInt32 = 0o600

  /// Group of the socket file when binding a path (nil: navd's own). With a group, use
  /// mode 0660 so its members may connect (the access policy still decides per call).
  public var socketGroup: UInt32?

  /// Open connections served normally. Past it, a connection is accepted, answered
  /// `refusal` (navd: `io.navd.LimitExceeded`) at once (before it sends anything) and closed. Default 4096
  /// (as systemd).
  public var maxConnections = 4096

  /// Open connections of one uid (navd's own uid exempt). Past it, that uid's next
  /// connection is answered `refusal` (`limit: "connectionsPerUser"`) and
  /// closed, while other users are still served. Default 1024 (as systemd's varlink).
  public var maxConnectionsPerUser = 1024

  /// Output queued to all connections of one uid (navd's own uid exempt). While a uid is
  /// over it, each of its connections that has more than `outputLowWaterBytes` waiting
  /// (one that is not keeping up) is closed with a logged reason naming
  /// `outputBytesPerUser`. Default 64 MiB.
  public var maxOutputBytesPerUser = 64 * 1024 * 1024

  /// Connections over a limit that may linger after their refusal, until
  /// their first call or EOF arrives, so that closing cannot reset them. Beyond these, a
  /// new connection gets the same answer but is closed right after it. Default 64.
  public var maxRejectedConnections = 64

  /// Longest frame (one JSON message) accepted; longer ones close the connection, also
  /// while they arrive in pieces. Default 1 MiB.
  public var maxFrameBytes = VarlinkFrameDecoder.defaultMaxFrameBytes

  /// Deepest JSON nesting accepted in a call; deeper closes the connection. Default 64.
  public var maxJSONDepth = 64

  /// A streaming call's source is asked for more replies only while less than this is
  /// waiting to be written, and pipelined calls are dispatched only while the output
  /// waiting plus the replies held back for call order (a call that ended before an
  /// earlier one) is below it. Default 64 KiB.
  public var outputLowWaterBytes = 64 * 1024

  /// Pipelined calls of one connection that navd works on at once: dispatched in the
  /// order received, answered in that order (PROTOCOL.md §2). A call with `more` is
  /// dispatched only when no earlier one is in flight. Default 64: pipelined Mutates to a
  /// scene that arrive while its previous group is stored make the next group (one store
  /// commit, one write per subscriber), so the window is what makes a pipelining writer
  /// fast. A group holds one scene state, not one per version (`GroupPlan`), so a large
  /// scene's memory does not grow with it.
  public var maxCallsInFlight = 64

  /// Whether a pipelined call may be dispatched while earlier calls of its connection are
  /// still in flight (and later ones alongside it). A call for which it is false runs
  /// alone, so it sees the effects of every earlier call: the service lets only calls
  /// that keep their order by themselves overlap (navd: `Mutate`, queued per scene in
  /// arrival order). Default: none, one call at a time.
  public var mayOverlap: @Sendable (VarlinkCall) -> Bool = { _ in false }

  /// Output waiting for a connection beyond this closes it (logged): a reader that never
  /// reads cannot grow navd's memory. Default 16 MiB (as systemd).
  public var outputHardLimitBytes = 16 * 1024 * 1024

  /// A connection that has held a partial frame (bytes without a NUL) this long is
  /// closed (logged). Over-limit connections that send no call are closed after it too.
  /// Default 30 s.
  public var partialFrameTimeout: Duration = .seconds(30)

  /// A connection with output waiting that could write none of it for this long is
  /// closed (logged): typically a subscriber that stopped reading, also when no new
  /// update arrives. Checked on the loop's timer. Default 60 s
  /// (`--subscriber-stall-seconds`).
  public var outputStallTimeout: Duration = .seconds(60)
  /// While the server stops or hands over, output waiting with none of it written for
  /// this long closes the connection (logged as stalled): a client that does not read
  /// cannot hold a stop or a restart past it. Default 250 ms.
  public var stopStallTimeout: Duration = .milliseconds(250)

  /// A connection with no call in progress, no stream open, no partial message and no
  /// output waiting for this long is closed (logged), so silent clients cannot hold
  /// every connection slot. nil: never. Default 300 s (`--idle-timeout`, 0 disables).
  public var idleTimeout: Duration? = .seconds(300)

  /// Bytes read from a socket per `read`. Default 64 KiB.
  public var readChunkBytes = 64 * 1024

  /// A frame at least this long is parsed, and decoded by `CallHandler.prepare`, on
  /// another thread than the loop's, while the loop serves the other connections; its
  /// connection dispatches nothing else meanwhile, so its calls keep their order.
  /// Smaller frames are parsed on the loop: handing one over costs more than parsing it.
  /// Default 64 KiB.
  public var offLoopParseBytes = 64 * 1024

  /// Runs on the event-loop thread at least every `interval` (and not more often than
  /// every 10 ms): a loop that is stuck stops calling it, which is what a watchdog needs.
  public struct Heartbeat: Sendable {
    /// Longest time between two calls while the loop is healthy.
    public var interval: Duration
    /// Called on the loop thread; must return at once.
    public var action: @Sendable () -> Void

    /// A heartbeat calling `action` at least every `interval`.
    public init(interval: Duration, action: @escaping @Sendable () -> Void) {
      self.interval = interval
      self.action = action
    }
  }

  /// Connections a predecessor process handed over (`VarlinkServer.stopForHandOver`),
  /// served from the start; each may repeat the call its stream was serving. Default none.
  public var adopted: [AdoptedConnection] = []

  /// The loop's heartbeat (the systemd watchdog), if any. Default none.
  public var heartbeat: Heartbeat?

  /// `GetInfo` vendor: the service's (navd: `ServerConfiguration.serveNavd()`). Default empty.
  public var vendor = ""
  /// `GetInfo` product, also the name the refusal messages give the server. Default `server`.
  public var product = "server"
  /// `GetInfo` version. Default empty.
  public var version = ""
  /// `GetInfo` url. Default empty.
  public var url = ""

  /// The reply frame a connection turned away reads before it is closed: the
  /// service's error (navd: `io.navd.LimitExceeded`). Default
  /// `org.varlink.service.PermissionDenied` with the message.
  public var refusal: @Sendable (ConnectionRefusal) -> [UInt8] = ConnectionRefusal.permissionDenied

  /// What the call-rejected log line says of an error reply, from its name and parameters:
  /// the service's reading of its errors (navd: `RejectionSummary.navd`). Default
  /// `RejectionSummary.generic`, the name and every string parameter.
  public var rejectionSummary: @Sendable (_ error: String, _ parameters: JSONValue) -> RejectionSummary =
    RejectionSummary.generic

  /// Called on the loop thread with the connection id after every successful write
  /// (tests check write order and batching with it).
  var writeObserver: (@Sendable (UInt64) -> Void)?

  /// A configuration with every default, listening on `socketPath`.
  public init(socketPath: String) {
    listener = .path(socketPath)
  }

  /// A configuration with every default, listening on `listener`.
  public init(listener: Listener) {
    self.listener = listener
  }

  /// The socket path clients use, if known.
  public var socketPath: String? {
    switch listener {
    case .path(let path): path
    case .fileDescriptor(_, let path): path
    }
  }
}
