import NavModel
import Varlink

/// `io.navd.ServerStopping`: the final reply of every stream, and the answer to every call still
/// waiting, when navd stops (PROTOCOL.md "Stopping and restarting"). Sent by the daemon, not the
/// engine, so it has no `NavError.Code`.
public struct ServerStopping: VarlinkError, Hashable {
  /// `io.navd.ServerStopping`.
  public static let name = "io.navd.ServerStopping"
  /// One sentence for a person.
  public var message: String
  /// Whether a new navd takes the socket over (subscribe again with `sinceVersion` and `epoch`).
  public var restarting: Bool

  /// The error navd sends when it stops (`restarting: false`) or restarts.
  public init(message: String, restarting: Bool) {
    self.message = message
    self.restarting = restarting
  }

  /// `io.navd.ServerStopping`.
  public var errorName: String { Self.name }
  /// `{"message": …, "restarting": …}`.
  public var errorParameters: JSONValue { ["message": .string(message), "restarting": .bool(restarting)] }
}
