/// What navd keeps in a directory `SafeDirectory` checks: a refusal says what others could
/// replace there and how to give navd another directory, never how to change a shared one.
public enum DirectoryUse: Sendable, Hashable {
  /// The directory of navd's listening socket.
  case socket
  /// navd's state directory (its database, redo log and lock).
  case state

  /// What someone who may write the directory could replace: "navd's socket".
  var contents: String {
    switch self {
    case .socket: "navd's socket"
    case .state: "navd's database and redo log"
    }
  }

  /// How to give navd another directory for this, with an example fit for `navdUID`.
  func alternative(navdUID: UInt32) -> String {
    switch self {
    case .socket:
      "give navd another socket path: --socket PATH (or NAVD_SOCKET, or Socket= in navd.conf's [Server]) "
        + "in a directory only navd's user can write, such as "
        + (navdUID == 0 ? "/run/navd" : "$XDG_RUNTIME_DIR/navd")
    case .state:
      "give navd another state directory: --state-dir DIR (or StateDirectory= in navd.conf's [Store]) "
        + "that only navd's user can write, such as " + (navdUID == 0 ? "/var/lib/navd" : "~/.local/state/navd")
    }
  }
}
