import Synchronization
import Varlink

/// What a server hands to its successor process when it stops for a restart
/// (`VarlinkServer.stopForHandOver`): the listening socket and the connections it could
/// carry. The descriptors stay open; the caller passes them on (systemd's fd store) and
/// then exits.
public struct HandOver: Sendable {
  /// The listening socket (still listening; connections queue in its backlog meanwhile).
  public var listenerFD: Int32
  /// Connections between calls or in a stream that can be continued.
  public var connections: [CarriedConnection]
}

/// One connection carried over a restart.
public struct CarriedConnection: Sendable, Equatable {
  /// Its socket.
  public var fd: Int32
  /// For a stream: the call the successor repeats (with `sinceVersion`-like parameters
  /// merged in by the source); nil for a connection between calls.
  public var resume: VarlinkCall?

  /// A carried connection.
  public init(fd: Int32, resume: VarlinkCall?) {
    self.fd = fd
    self.resume = resume
  }
}

/// A connection handed over by a predecessor, for `ServerConfiguration.adopted`.
public typealias AdoptedConnection = CarriedConnection

/// Where the loop leaves the `HandOver` once it is decided.
public final class HandOverReceipt: Sendable {
  private let value = Mutex<HandOver?>(nil)

  init() {}

  func fulfil(_ handOver: HandOver) { value.withLock { $0 = handOver } }

  /// The hand-over, once the loop has decided it (after `waitUntilStopped()`).
  public var handOver: HandOver? { value.withLock { $0 } }
}

/// A hand-over in progress on the loop.
struct PendingHandOver {
  var finalReply: [UInt8]
  var deadline: ContinuousClock.Instant
  var receipt: HandOverReceipt
}
