/// Where a reconnecting stream's connection stands, for a front end that shows it (a window
/// that says "disconnected" rather than look frozen while navd restarts).
public enum StreamConnectionState: Sendable, Hashable {
  /// The subscription is open on a live connection: the call was sent to a navd that accepted
  /// the connection.
  case connected
  /// The connection was lost (navd stopped, restarted or dropped it); the stream is waiting out
  /// its backoff or reconnecting, and resumes from the last version it yielded.
  case reconnecting
}

/// Told of every change of a stream's `StreamConnectionState`, on the stream's own task.
public typealias StreamConnectionObserver = @Sendable (StreamConnectionState) -> Void
