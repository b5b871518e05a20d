import NavFileSystem

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

  /// `--state-dir`, else `$STATE_DIRECTORY` (systemd's `StateDirectory=`; the first of
  /// a colon-separated list), else `$XDG_STATE_HOME/navd`, else `./.navd`.
  public static func resolve(explicit: String?, environment: [String: String]) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let systemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !systemd.isEmpty {
      return String(systemd)
    }
    if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/navd" }
    return "./.navd"
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
      _ = try SafeDirectory.open(path, creating: 0o700)
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
