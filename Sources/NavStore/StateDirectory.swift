import NavFileSystem
import NavSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Where navd keeps its database and lock, and the checks that make it safe to use.
public enum StateDirectory {
  /// The directory holding the file at `path` (`.` for a bare name, `/` for a file in the root).
  static func containing(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Where the state directory is, and which rule chose it (for messages).
  public struct Location: Sendable, Hashable {
    /// The directory, always absolute.
    public var path: String
    /// The rule that chose it.
    public var origin: Origin
  }

  /// The rules of `resolve`, in order.
  public enum Origin: Sendable, Hashable, CustomStringConvertible {
    /// `--state-dir` (or the configuration's `StateDirectory=`).
    case option
    /// `$STATE_DIRECTORY`, set by systemd's `StateDirectory=`.
    case systemd
    /// `$XDG_STATE_HOME/navd`.
    case xdgStateHome
    /// `$HOME/.local/state/navd` (`XDG_STATE_HOME` unset); `fromDatabase` when `HOME`
    /// was unset too and the home directory came from the user database.
    case home(fromDatabase: Bool)

    /// How the directory was chosen, for a message: `given with --state-dir`, `the default
    /// $XDG_STATE_HOME/navd`, ….
    public var description: String {
      switch self {
      case .option: "given with --state-dir"
      case .systemd: "from $STATE_DIRECTORY"
      case .xdgStateHome: "the default, $XDG_STATE_HOME/navd"
      case .home(false): "the default, $HOME/.local/state/navd, as XDG_STATE_HOME is not set"
      case .home(true):
        "the default, ~/.local/state/navd of the user database's home, as HOME and XDG_STATE_HOME are not set"
      }
    }
  }

  /// `--state-dir`, else `$STATE_DIRECTORY` (systemd's `StateDirectory=`; the first of
  /// a colon-separated list), else `$XDG_STATE_HOME/navd`, else `$HOME/.local/state/navd`
  /// (the XDG base directory default; the user database's home when `HOME` is unset).
  /// `XDG_STATE_HOME` and `HOME` count only when absolute, as the XDG specification says;
  /// a relative `--state-dir` is made absolute against `workingDirectory`. navd and navctl
  /// both resolve it here, so they agree.
  public static func resolve(
    explicit: String?, environment: [String: String],
    workingDirectory: String? = AbsolutePath.workingDirectory,
    accountHome: () -> String? = { Accounts.homeDirectory(geteuid()) }
  ) throws(Refusal) -> Location {
    func absolute(_ path: String, _ origin: Origin) throws(Refusal) -> Location {
      if path.hasPrefix("/") { return Location(path: AbsolutePath.make(path, in: "/"), origin: origin) }
      guard let workingDirectory else {
        throw Refusal(
          message: "state directory \(path) (\(origin)) is relative and the working directory cannot be read: "
            + "give an absolute path")
      }
      return Location(path: AbsolutePath.make(path, in: workingDirectory), origin: origin)
    }
    if let explicit, !explicit.isEmpty { return try absolute(explicit, .option) }
    if let systemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !systemd.isEmpty {
      return try absolute(String(systemd), .systemd)
    }
    if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return try absolute(xdg + "/navd", .xdgStateHome) }
    if let home = environment["HOME"], home.hasPrefix("/") {
      return try absolute(home + "/.local/state/navd", .home(fromDatabase: false))
    }
    if let home = accountHome(), home.hasPrefix("/") {
      return try absolute(home + "/.local/state/navd", .home(fromDatabase: true))
    }
    throw Refusal(
      message: "no state directory: --state-dir is not given, STATE_DIRECTORY, XDG_STATE_HOME and HOME are not set, "
        + "and uid \(geteuid()) has no home directory in the user database; give --state-dir DIR")
  }

  /// Why a state directory is refused; the message names the check that failed.
  public struct Refusal: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the directory and the check.
    public var message: String
    /// The message.
    public var description: String { message }
  }

  /// Creates `path` (mode 0700, parents too) when missing; an existing one must be a real
  /// directory (not a symlink), owned by navd's uid (or root), and not group- or
  /// world-writable: the checks of `SafeDirectory`, shared with the socket directory.
  public static func prepare(_ path: String) throws(Refusal) {
    try createMissingParents(path)
    do {
      _ = try SafeDirectory.open(path, for: .state, creating: 0o700)
    } catch {
      throw Refusal(message: "state directory \(error)")
    }
  }

  private static func createMissingParents(_ path: String) throws(Refusal) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/").dropLast() where component != "." {
      prefix += "/" + component
      guard mkdir(prefix, 0o700) != 0 else {
        // The umask may have narrowed it: set it exactly.
        _ = chmod(prefix, 0o700)
        continue
      }
      let error = errno
      guard error == EEXIST else {
        throw Refusal(message: "state directory \(path): mkdir \(prefix): \(String(cString: strerror(error)))")
      }
    }
  }
}
