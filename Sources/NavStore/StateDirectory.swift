#if canImport(Glibc)
  import Glibc
#endif

/// Where navd keeps its database and lock, and the checks that make it safe to use.
public enum StateDirectory {
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
    public var message: String
    public var description: String { message }
  }

  /// Creates `path` (mode 0700, parents too) when missing; an existing one must be a real
  /// directory (not a symlink), owned by navd's uid, and not group- or world-writable.
  public static func prepare(_ path: String) throws(Refusal) {
    try createMissing(path)
    try check(path)
  }

  /// The ownership and mode checks alone (for `navctl`, which never creates the directory).
  public static func check(_ path: String) throws(Refusal) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else {
      let error = errno
      var link = stat()
      let isLink = lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
      // With O_DIRECTORY, Linux reports a symlink as ENOTDIR rather than ELOOP.
      switch error {
      case _ where isLink, ELOOP:
        throw Refusal(message: "state directory \(path) is a symlink; navd uses only a real directory")
      case ENOTDIR: throw Refusal(message: "state directory \(path) is not a directory")
      default: throw Refusal(message: "state directory \(path): open: \(String(cString: strerror(error)))")
      }
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw Refusal(message: "state directory \(path): fstat: \(String(cString: strerror(errno)))")
    }
    let uid = geteuid()
    guard info.st_uid == uid else {
      throw Refusal(
        message: "state directory \(path) is owned by uid \(info.st_uid), not navd's uid \(uid); "
          + "chown it or choose another with --state-dir")
    }
    let mode = info.st_mode & 0o7777
    guard mode & 0o022 == 0 else {
      throw Refusal(
        message: "state directory \(path) is group- or world-writable (mode \(String(mode, radix: 8))); "
          + "chmod 0700 it")
    }
  }

  private static func createMissing(_ path: String) throws(Refusal) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") where component != "." {
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
