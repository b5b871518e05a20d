#if canImport(Glibc)
  import Glibc
#endif

/// Why navd closed a connection; each is logged once, at the level given here.
///
/// The Varlink specification and systemd close the connection on anything that is
/// not a well-formed call (invalid JSON or UTF-8, too deep, too big, unknown keys,
/// wrong types, conflicting flags): the two sides are out of sync and there is no
/// reply the client could match to a call. navd does the same.
enum CloseReason: Equatable, Sendable, CustomStringConvertible {
  /// The peer closed the connection (normal).
  case peerClosed
  /// The frame was not a valid Varlink call (detail says why).
  case protocolError(String)
  /// A frame exceeded the size limit, possibly while still arriving.
  case frameTooLarge(String)
  /// A partial frame sat in the buffer longer than the timeout.
  case partialFrameTimeout(Duration)
  /// Output waiting for the peer exceeded the hard limit (a reader that does not read).
  case outputLimit(Int)
  /// Output was waiting and none of it could be written for this long (a client that
  /// stopped reading, typically a subscriber); `pendingBytes` were still queued.
  case stalled(Duration, pendingBytes: Int)
  /// Nothing in progress (no call, no stream, no partial message, no output) for this long.
  case idleTimeout(Duration)
  /// The connection was over the limit and got its refusal.
  case connectionLimit
  /// The connection was over the limit, got its refusal, and sent no call in time.
  case connectionLimitTimeout
  /// The handler asked to disconnect the client (`CallContext.close(reason:)`).
  case requested(String)
  /// A read or write failed.
  case ioError(String)
  /// The server is shutting down.
  case serverStopping

  var description: String {
    switch self {
    case .peerClosed: "peer closed the connection"
    case .protocolError(let detail): "protocol error: \(detail)"
    case .frameTooLarge(let detail): "\(detail)"
    case .partialFrameTimeout(let timeout): "no complete message within \(timeout) (partial frame timeout)"
    case .outputLimit(let limit): "client not reading: more than \(limit) bytes of output queued"
    case .stalled(let timeout, let pending):
      "client not reading: \(pending) bytes of output waiting and none written for \(timeout.seconds) s (stall timeout)"
    case .idleTimeout(let timeout):
      "idle for \(timeout.seconds) s: no call, no stream, no partial message (idle timeout)"
    case .connectionLimit: "over the connection limit: answered the refusal"
    case .connectionLimitTimeout: "over the connection limit: answered the refusal; no call arrived in time"
    case .requested(let reason): reason
    case .ioError(let detail): "I/O error: \(detail)"
    case .serverStopping: "server stopping"
    }
  }

  /// A failed `send`: the peer gone (EPIPE, ECONNRESET) is a normal close, anything else an I/O error.
  init(sendFailure error: SystemCallError) {
    self = error.errno == EPIPE || error.errno == ECONNRESET ? .peerClosed : .ioError(error.description)
  }

  /// How loudly to log it.
  var logLevel: LogLevel {
    switch self {
    case .peerClosed, .serverStopping: .debug
    case .connectionLimit, .connectionLimitTimeout, .idleTimeout: .info
    case .requested: .notice
    case .protocolError, .frameTooLarge, .partialFrameTimeout, .outputLimit, .stalled, .ioError: .warning
    }
  }
}

extension Duration {
  /// Whole or fractional seconds as a short decimal ("60", "0.25"), for reasons and logs.
  var seconds: String {
    let (whole, attoseconds) = components
    if attoseconds == 0 { return String(whole) }
    return String(Double(whole) + Double(attoseconds) / 1e18)
  }
}
