/// Where navd listens when not told otherwise; navd and its clients share these rules.
///
/// 1. `$NAVD_SOCKET` if set and not empty;
/// 2. else `$XDG_RUNTIME_DIR/navd/navd.sock` (the `navd` directory is created 0700) when
///    `XDG_RUNTIME_DIR` is an absolute path;
/// 3. else `/run/navd/navd.sock`, the system service's socket: without a runtime directory
///    of its own (a session without a login manager, `sudo`, cron) a client reaches the
///    system navd, and a navd started by hand serves there only when it may (as root, or
///    as the user that owns `/run/navd`); anyone else gives `--socket` or sets
///    `XDG_RUNTIME_DIR`. There is no per-working-directory default: a socket is found
///    from anywhere or not at all.
///
/// A relative path is made absolute against the working directory by navd and
/// `NavClient` (NavSystem's `AbsolutePath`), so every message names the same file.
public struct NavSocketPath: Sendable, Hashable {
  /// The system service's socket, the last default.
  public static let system = "/run/navd/navd.sock"

  /// The socket's path.
  public var path: String
  /// Directory navd creates before binding, when it is navd's own.
  public var directoryToCreate: String?
  /// The mode for `directoryToCreate`; nil for navd's own choice (0700, or 0750 with a
  /// socket group). `/run/navd` is 0755 as systemd makes a socket unit's directory: the
  /// socket file's own mode decides who connects.
  public var directoryMode: UInt32?
  /// Which rule chose the path.
  public var origin: Origin

  /// The rules above, in order.
  public enum Origin: Sendable, Hashable {
    /// Given explicitly (`--socket`, a client's own path).
    case given
    /// `$NAVD_SOCKET`.
    case environment
    /// `$XDG_RUNTIME_DIR/navd/navd.sock`.
    case runtimeDirectory
    /// `/run/navd/navd.sock`, as `XDG_RUNTIME_DIR` is not set.
    case system
  }

  /// Creates a path with an optional directory to create.
  public init(
    path: String, directoryToCreate: String? = nil, directoryMode: UInt32? = nil, origin: Origin = .given
  ) {
    self.path = path
    self.directoryToCreate = directoryToCreate
    self.directoryMode = directoryMode
    self.origin = origin
  }

  /// Applies the rules above to `environment` (pass `ProcessInfo.processInfo.environment`).
  public static func defaultPath(environment: [String: String]) -> NavSocketPath {
    if let explicit = environment["NAVD_SOCKET"], !explicit.isEmpty {
      return NavSocketPath(path: explicit, origin: .environment)
    }
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      let directory = runtime.hasSuffix("/") ? runtime + "navd" : runtime + "/navd"
      return NavSocketPath(path: directory + "/navd.sock", directoryToCreate: directory, origin: .runtimeDirectory)
    }
    return NavSocketPath(path: system, directoryToCreate: "/run/navd", directoryMode: 0o755, origin: .system)
  }
}
