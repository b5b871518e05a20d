import CNavSys

#if canImport(Glibc)
  import Glibc
#endif

/// Preparing and binding the listening socket file.
public enum SocketPath {
  /// Why the socket path cannot be used.
  public enum PreparationError: Error, Sendable, CustomStringConvertible {
    /// Another server accepted a connection on the path.
    case alreadyServing(path: String)
    /// Something other than a socket is at the path; navd will not remove it.
    case notASocket(path: String)
    /// The path does not fit in `sockaddr_un`.
    case tooLong(path: String, max: Int)
    /// A system call failed.
    case system(SystemCallError, path: String)

    public var description: String {
      switch self {
      case .alreadyServing(let path):
        "another navd is already listening on \(path) (stop it, or choose another path with --socket)"
      case .notASocket(let path): "\(path) exists and is not a socket; refusing to replace it"
      case .tooLong(let path, let max): "socket path \(path) is longer than \(max) bytes"
      case .system(let error, let path): "\(path): \(error)"
      }
    }
  }

  /// Makes `path` ready to bind: creates `directory` (mode 0700) when given and missing,
  /// refuses when a live server answers on `path`, and removes a stale socket file (one
  /// where connecting is refused).
  public static func prepare(_ path: String, creatingDirectory directory: String? = nil)
    throws(PreparationError)
  {
    let maxLength = Int(cnav_unix_path_max())
    guard path.utf8.count <= maxLength else { throw .tooLong(path: path, max: maxLength) }
    if let directory { try createDirectory(directory) }

    var info = stat()
    guard lstat(path, &info) == 0 else {
      let error = cnav_errno()
      if error == ENOENT { return }
      throw .system(SystemCallError("lstat", errno: error), path: path)
    }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
    if try isServing(path) { throw .alreadyServing(path: path) }
    guard unlink(path) == 0 || cnav_errno() == ENOENT else {
      throw .system(SystemCallError("unlink", errno: cnav_errno()), path: path)
    }
  }

  /// Whether a server accepts connections on `path` (a refused connect means a stale file).
  public static func isServing(_ path: String) throws(PreparationError) -> Bool {
    let fd = cnav_unix_stream_socket(1)
    guard fd >= 0 else { throw .system(SystemCallError("socket", errno: cnav_errno()), path: path) }
    defer { Syscall.close(fd) }
    if cnav_connect_unix(fd, path) == 0 { return true }
    switch cnav_errno() {
    // EAGAIN: the backlog is full, which only a live server has.
    case EAGAIN, EINPROGRESS: return true
    case ECONNREFUSED, ENOENT: return false
    case let error: throw .system(SystemCallError("connect", errno: error), path: path)
    }
  }

  private static func createDirectory(_ directory: String) throws(PreparationError) {
    if mkdir(directory, 0o700) == 0 {
      // The umask may have narrowed or, in a multi-threaded process, be changing: set it exactly.
      _ = chmod(directory, 0o700)
      return
    }
    let error = cnav_errno()
    guard error == EEXIST else { throw .system(SystemCallError("mkdir", errno: error), path: directory) }
  }

  /// Binds and listens on `path` (non-blocking, close-on-exec) with file mode `mode`.
  ///
  /// The umask is narrowed around `bind` so the file is never more open than `mode`,
  /// even for the instant before the explicit `chmod`. Call before other threads
  /// create files (the umask is process-wide).
  static func bindListener(path: String, mode: UInt32, backlog: Int32 = 4096) throws(PreparationError) -> Int32 {
    let fd = cnav_unix_stream_socket(1)
    guard fd >= 0 else { throw .system(SystemCallError("socket", errno: cnav_errno()), path: path) }
    let oldMask = umask(mode_t(~mode & 0o777))
    let bound = cnav_bind_unix(fd, path)
    let bindError = cnav_errno()
    umask(oldMask)
    guard bound == 0 else {
      Syscall.close(fd)
      if bindError == ENAMETOOLONG { throw .tooLong(path: path, max: Int(cnav_unix_path_max())) }
      throw .system(SystemCallError("bind", errno: bindError), path: path)
    }
    guard chmod(path, mode_t(mode)) == 0, listen(fd, backlog) == 0 else {
      let error = SystemCallError("listen", errno: cnav_errno())
      Syscall.close(fd)
      unlink(path)
      throw .system(error, path: path)
    }
    return fd
  }

  /// Identity of the file at `path` (device, inode), to unlink only our own socket later.
  static func identity(of path: String) -> (UInt64, UInt64)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (UInt64(info.st_dev), UInt64(info.st_ino))
  }
}
