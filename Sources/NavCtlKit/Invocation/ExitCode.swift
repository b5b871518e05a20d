import NavModel
import NavWire
import Varlink

/// navctl's exit statuses, one per class of failure (documented in `--help`, navctl(1) and the README).
public enum ExitCode: Int32, Sendable, Hashable, CaseIterable {
  case success = 0
  /// navd refused the request: a rule or a value it rejected (InvalidMutation, CannotPopRoot,
  /// LimitExceeded, …), a request too large to send, or a reply navctl cannot read.
  case refused = 1
  /// The command line was wrong; nothing was sent.
  case usage = 2
  /// navd could not be reached: no socket, nothing accepting on it, or the socket's permissions refuse the user.
  case unreachable = 3
  /// `io.navd.Conflict`: `--expect` or `--if-version` did not match.
  case conflict = 4
  /// What the command names does not exist: `io.navd.SceneNotFound`, `io.navd.ItemNotFound`.
  case notFound = 5
  /// navd's access policy does not grant the right (`org.varlink.service.PermissionDenied`).
  case permissionDenied = 6
  /// navd did not answer within `--timeout`.
  case timedOut = 7
  /// navd went away: the connection closed before the reply, navd stopped (`io.navd.ServerStopping`)
  /// under `--no-follow`, or a following `watch`/`actions` could not reconnect within `--follow-timeout`.
  case gone = 8

  /// The status for a Varlink error reply named `name`.
  public static func forError(named name: String) -> ExitCode {
    switch name {
    case NavErrorName.conflict.rawValue: .conflict
    case NavErrorName.sceneNotFound.rawValue, NavErrorName.itemNotFound.rawValue: .notFound
    case VarlinkServiceNames.permissionDenied: .permissionDenied
    case ServerStopping.name: .gone
    default: .refused
    }
  }
}
