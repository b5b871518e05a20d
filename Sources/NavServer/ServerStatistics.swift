import Synchronization

/// Counters the server keeps for `GetServerInfo` and logs; a snapshot is a plain value.
public struct ServerStatistics: Sendable, Hashable {
  /// Connections being served now (not counting ones over the limit).
  public var openConnections: Int
  /// Connections over the limit now waiting for their refusal.
  public var rejectingConnections: Int
  /// Connections accepted since start (served or rejected).
  public var acceptedTotal: Int
  /// Connections turned away because of the connection limit since start.
  public var rejectedTotal: Int
}

/// The live counters behind `ServerStatistics`: written by the loop thread, read anywhere.
final class ServerCounters: Sendable {
  let open = Atomic<Int>(0)
  let rejecting = Atomic<Int>(0)
  let accepted = Atomic<Int>(0)
  let rejected = Atomic<Int>(0)

  var snapshot: ServerStatistics {
    ServerStatistics(
      openConnections: open.load(ordering: .relaxed), rejectingConnections: rejecting.load(ordering: .relaxed),
      acceptedTotal: accepted.load(ordering: .relaxed), rejectedTotal: rejected.load(ordering: .relaxed))
  }
}
