import NavModel
import NavSystem
import NavWire

#if canImport(Glibc)
  import Glibc
#endif

/// Everything a `NavClient` call can fail with (besides `CancellationError` and errors your own closures throw).
///
/// `.remote` is navd's answer (a Varlink error reply); every other case is about getting
/// that answer at all.
public enum NavClientError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Could not connect to the socket at `socketPath`: `errno` says why (ENOENT: no socket there;
  /// ECONNREFUSED: a socket file nobody accepts on; EACCES: the permissions refuse this user),
  /// `hint` what to do about it (for EACCES the whole sentence: `SocketPermission.diagnose`).
  case unreachable(socketPath: String, errno: Int32, hint: String)
  /// navd answered with the Varlink error `name` (`io.navd.Conflict`,
  /// `org.varlink.service.InvalidParameter`, …) and its parameters.
  case remote(name: String, parameters: JSONValue)
  /// navd (or whatever answers on the socket) broke the Varlink or io.navd protocol.
  case protocolViolation(String)
  /// The call did not get its reply within the client's `timeout`.
  case timedOut
  /// The connection closed (EOF, EPIPE, ECONNRESET) before the reply arrived.
  case disconnected
  /// A system call failed in a way none of the cases above covers (`socket` out of descriptors, …).
  case system(function: String, errno: Int32)
  /// The call was not sent: encoded, it is `bytes` long, beyond navd's frame limit of `limit`
  /// bytes (PROTOCOL §9.13), which navd would answer by closing the connection.
  case requestTooLarge(bytes: Int, limit: Int)
  /// A following stream lost navd and could not reconnect within its `FollowPolicy.giveUpAfter`.
  case gone(socketPath: String, after: Duration)

  /// The Varlink error name of a `.remote` error, else nil.
  public var remoteName: String? {
    if case .remote(let name, _) = self { return name }
    return nil
  }

  /// The `message` parameter of a `.remote` error (every io.navd error has one), else nil.
  public var message: String? {
    if case .remote(_, let parameters) = self { return parameters["message"]?.stringValue }
    return nil
  }

  /// Whether this is `io.navd.Conflict`: the scene changed under the caller (CONFLICTS.md).
  public var isConflict: Bool { remoteName == NavErrorName.conflict.rawValue }

  /// For a Conflict: the scene's version when navd rejected the mutation.
  public var currentVersion: UInt64? { navError?.currentVersion }

  /// A `.remote` io.navd error as the `NavError` navd raised (code, field, limit, …); nil
  /// for any other case and for errors of other interfaces.
  public var navError: NavError? {
    guard case .remote(let name, let parameters) = self else { return nil }
    return NavError(errorName: name, parameters: parameters)
  }

  /// One line for people: what failed and, for `.unreachable`, what to do.
  public var description: String {
    switch self {
    case .unreachable(_, EACCES, let hint):
      return hint
    case .unreachable(let path, let errno, let hint):
      return "cannot connect to navd at \(path): \(Self.errorText(errno)). \(hint)"
    case .remote(let name, let parameters):
      var text = name
      if let message = parameters["message"]?.stringValue {
        text += ": " + message
      } else if case .object(let members) = parameters, !members.isEmpty {
        text += " " + JSONWriter.string(parameters)
      }
      return text
    case .protocolViolation(let detail):
      return "navd broke the protocol: \(detail)"
    case .timedOut:
      return "navd did not answer in time"
    case .disconnected:
      return "the connection to navd closed before the reply arrived"
    case .system(let function, let errno):
      return "\(function) failed: \(Self.errorText(errno))"
    case .requestTooLarge(let bytes, let limit):
      return "the request is \(bytes) bytes, beyond navd's frame limit of \(limit) bytes; nothing was sent"
    case .gone(let path, let after):
      return "navd at \(path) went away and did not come back within \(after)"
    }
  }

  static func errorText(_ code: Int32) -> String {
    "\(String(cString: strerror(code))) (errno \(code))"
  }

  /// Builds `.unreachable` for a failed connect to `path`, with advice that fits `errno`.
  static func unreachable(_ path: String, errno code: Int32) -> NavClientError {
    let start = "start navd (`navd`, or `navd --socket \(path)`), or point the client elsewhere with NAVD_SOCKET"
    let hint: String
    switch code {
    case ENOENT: hint = "No socket exists there: is navd running? To fix: \(start)."
    case ECONNREFUSED: hint = "A socket file exists but nothing accepts on it (navd exited?). To fix: \(start)."
    case EACCES: hint = SocketPermission.diagnose(path).description
    case EPERM: hint = "A security policy (seccomp, AppArmor, SELinux) refused the connection."
    case ENAMETOOLONG: hint = "Unix socket paths are limited to 107 bytes; use a shorter path."
    case EAGAIN: hint = "navd is not accepting connections fast enough (its listen backlog is full)."
    case ENOTDIR: hint = "A component of the path is not a directory."
    default: hint = "Check that navd is running and listening on this path."
    }
    return .unreachable(socketPath: path, errno: code, hint: hint)
  }
}
