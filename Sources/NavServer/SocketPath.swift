import CNavSys
import NavFileSystem
import NavSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Preparing and binding the listening socket file.
public enum SocketPath {
  /// Why the socket path cannot be used.
  public enum PreparationError: Error, Sendable, CustomStringConvertible {
    /// Another server accepted a connection on the path: another navd, or what was
    /// found instead.
    case alreadyServing(path: String, found: ListenerProbe?)
    /// Something other than a socket is at the path; navd will not remove it.
    case notASocket(path: String)
    /// The path does not fit in `sockaddr_un`.
    case tooLong(path: String, max: Int)
    /// A system call failed.
    case system(SystemCallError, path: String)
    /// The directory that holds (or would hold) the socket is not safe (see `SafeDirectory`).
    case unsafeDirectory(SafeDirectoryError)
    /// Probing the socket at `path` was refused with EACCES: `problem` says what is in the way
    /// (`SocketPermission.diagnose`), so navd cannot tell whether a server listens there.
    case permissionDenied(path: String, problem: String)

    /// What is wrong with the socket path and what to do.
    public var description: String {
      switch self {
      case .alreadyServing(let path, let found?) where !found.answeredAsNavd:
        "\(path) is already in use: \(found) listens there; refusing to replace it "
          + "(stop that program, or choose another path with --socket)"
      case .alreadyServing(let path, let found):
        "\(found.map(String.init(describing:)) ?? "another navd") is already listening on \(path) "
          + "(stop it, or choose another path with --socket)"
      case .notASocket(let path): "\(path) exists and is not a socket; refusing to replace it"
      case .tooLong(let path, let max): "socket path \(path) is longer than \(max) bytes"
      case .system(let error, let path): "\(path): \(error)"
      case .unsafeDirectory(let problem): "refusing the socket directory: \(problem)"
      case .permissionDenied(_, let problem):
        "\(problem); navd cannot tell whether a server listens there and does not replace a socket it cannot "
          + "probe: stop the program that made it, or give navd another socket path with --socket PATH "
          + "(or NAVD_SOCKET)"
      }
    }
  }

  /// Makes `path` ready to bind: creates `directory` (mode 0700, or `directoryMode` and
  /// `group` for a shared socket) when given and missing, checks the socket's directory
  /// (`SafeDirectory`: not a link, owned by navd or root, not writable by others),
  /// refuses when a live server answers on `path`, and removes a stale socket file (one
  /// where connecting is refused). Everything after the check goes through the opened
  /// directory.
  public static func prepare(
    _ path: String, creatingDirectory directory: String? = nil, directoryMode: UInt32 = 0o700,
    group: UInt32? = nil
  ) throws(PreparationError) {
    let maxLength = Int(cnav_unix_path_max())
    guard path.utf8.count <= maxLength else { throw .tooLong(path: path, max: maxLength) }
    if let directory { _ = try openDirectory(directory, creating: directoryMode, group: group) }
    let (parent, name) = SafeDirectory.split(path)
    let holder = try openDirectory(parent)

    var info = stat()
    guard fstatat(holder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
      let error = cnav_errno()
      if error == ENOENT { return }
      throw .system(SystemCallError("lstat", errno: error), path: path)
    }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
    if try isServing(holder.path(of: name), displayPath: path) {
      throw .alreadyServing(path: path, found: ListenerProbe.probe(holder.path(of: name), fileOwner: info.st_uid))
    }
    guard unlinkat(holder.fd, name, 0) == 0 || cnav_errno() == ENOENT else {
      throw .system(SystemCallError("unlink", errno: cnav_errno()), path: path)
    }
  }

  private static func openDirectory(_ path: String, creating mode: UInt32? = nil, group: UInt32? = nil)
    throws(PreparationError) -> SafeDirectory
  {
    do {
      return try SafeDirectory.open(path, for: .socket, creating: mode, group: group)
    } catch {
      throw .unsafeDirectory(error)
    }
  }

  /// Whether a server accepts connections on `path` (a refused connect means a stale file);
  /// errors name `displayPath` (default `path`).
  public static func isServing(_ path: String, displayPath: String? = nil) throws(PreparationError) -> Bool {
    let fd = cnav_unix_stream_socket(1)
    guard fd >= 0 else {
      throw .system(SystemCallError("socket", errno: cnav_errno()), path: displayPath ?? path)
    }
    defer { Syscall.close(fd) }
    if cnav_connect_unix(fd, path) == 0 { return true }
    switch cnav_errno() {
    // EAGAIN: the backlog is full, which only a live server has.
    case EAGAIN, EINPROGRESS: return true
    case ECONNREFUSED, ENOENT: return false
    case EACCES:
      let shown = displayPath ?? path
      throw .permissionDenied(path: shown, problem: SocketPermission.diagnose(shown).problem)
    case let error: throw .system(SystemCallError("connect", errno: error), path: displayPath ?? path)
    }
  }

  /// Binds and listens on `path` (non-blocking, close-on-exec) with file mode `mode` and,
  /// when given, group `group`.
  ///
  /// The directory is opened and checked again (`SafeDirectory`) and the socket is bound
  /// through the open descriptor (`/proc/self/fd/N/NAME`), so a directory swapped after
  /// the check cannot receive the socket. The umask is narrowed around `bind` so the file
  /// is never more open than `mode`, even for the instant before the explicit `chmod`.
  /// Call before other threads create files (the umask is process-wide).
  static func bindListener(path: String, mode: UInt32, group: UInt32? = nil, backlog: Int32 = 4096)
    throws(PreparationError) -> Int32
  {
    let (parent, name) = SafeDirectory.split(path)
    let directory = try openDirectory(parent)
    let fd = cnav_unix_stream_socket(1)
    guard fd >= 0 else { throw .system(SystemCallError("socket", errno: cnav_errno()), path: path) }
    let oldMask = umask(mode_t(~mode & 0o777))
    let bound = cnav_bind_unix(fd, directory.path(of: name))
    let bindError = cnav_errno()
    umask(oldMask)
    guard bound == 0 else {
      Syscall.close(fd)
      if bindError == ENAMETOOLONG { throw .tooLong(path: path, max: Int(cnav_unix_path_max())) }
      throw .system(SystemCallError("bind", errno: bindError), path: path)
    }
    var failed: SystemCallError?
    if fchmodat(directory.fd, name, mode_t(mode), 0) != 0 {
      failed = SystemCallError("chmod", errno: cnav_errno())
    } else if let group, fchownat(directory.fd, name, UInt32.max, group, AT_SYMLINK_NOFOLLOW) != 0 {
      failed = SystemCallError("chown", errno: cnav_errno())
    } else if listen(fd, backlog) != 0 {
      failed = SystemCallError("listen", errno: cnav_errno())
    }
    if let failed {
      Syscall.close(fd)
      unlinkat(directory.fd, name, 0)
      throw .system(failed, path: path)
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
