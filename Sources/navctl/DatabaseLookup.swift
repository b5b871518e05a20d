import Glibc

/// Why navctl finds no database at a path: missing, or not readable by this user (and
/// which directory on the way refused, with its owner and mode), so "no navd database"
/// is said only when there is none.
enum DatabaseLookup {
  /// nil when `path` exists; else the sentence for the error.
  static func problem(_ path: String) -> String? {
    var info = stat()
    if stat(path, &info) == 0 {
      guard access(path, R_OK) != 0 else { return nil }
      return "cannot read the navd database at \(path): permission denied (\(describe(path, info))); "
        + "run navctl as navd's user or root"
    }
    let error = errno
    guard error == EACCES else {
      if error == ENOENT { return "no navd database at \(path) (give --state-dir DIR)" }
      return "cannot read the navd database at \(path): \(String(cString: strerror(error)))"
    }
    let refusing = refusingDirectory(of: path)
    let whose = refusing.map { " (\($0))" } ?? ""
    return "cannot read the navd database at \(path): permission denied\(whose); "
      + "run navctl as navd's user or root, or give --state-dir DIR"
  }

  /// The nearest directory on the way to `path` that this user may not search, with
  /// its owner and mode.
  private static func refusingDirectory(of path: String) -> String? {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/").dropLast() {
      prefix += "/" + component
      guard access(prefix, X_OK) != 0 else { continue }
      var info = stat()
      guard stat(prefix, &info) == 0 else { return nil }
      return describe(prefix, info)
    }
    return nil
  }

  private static func describe(_ path: String, _ info: stat) -> String {
    let mode = String(info.st_mode & 0o7777, radix: 8)
    return "\(path) is owned by uid \(info.st_uid) gid \(info.st_gid) with mode 0\(mode), "
      + "and navctl runs as uid \(geteuid())"
  }
}
