#if canImport(Glibc)
  import Glibc
#endif

/// A directory navd keeps files in (its socket, its state), opened once and checked on
/// the open descriptor — never check-then-use.
///
/// `open` opens the last path component with `O_NOFOLLOW | O_DIRECTORY`, `fstat`s the
/// descriptor and refuses the directory when
/// - it is a symbolic link (even to a directory navd owns: the link's owner decides
///   where it points);
/// - its owner is neither navd's uid nor root;
/// - its group or others may write it — except a root-owned directory with the sticky
///   bit (such as /tmp) when navd is not root: there nobody else can remove or rename
///   navd's files.
/// Files are then made through the descriptor (`path(of:)` names a child as
/// `/proc/self/fd/N/NAME` for calls that take only a path, such as `bind`).
///
/// Only search permission is needed, on the parent and on the directory: a directory
/// navd may search but not list (mode 0711, such as a home directory or a runtime
/// directory made by root) is opened with `O_PATH`, which every `*at` call and
/// `/proc/self/fd` accept; nothing reads a directory's entries.
///
/// Earlier components of the path are followed as usual: they are the caller's choice
/// (`$XDG_RUNTIME_DIR`, the working directory, an explicit `--socket`).
public final class SafeDirectory: Sendable {
  /// The path as given (for messages).
  public let path: String
  /// The open directory (`O_RDONLY | O_DIRECTORY | O_CLOEXEC`, or `O_PATH` instead of
  /// `O_RDONLY` when navd may only search it); closed on deinit.
  public let fd: Int32

  private init(path: String, fd: Int32) {
    self.path = path
    self.fd = fd
  }

  deinit { close(fd) }

  /// Opens and checks `path`, a directory for `use` (which says, in a refusal, what could be
  /// replaced there and which option chooses another). With `creating` the directory is
  /// first created with that mode (exactly, whatever the umask) and `group` (if given) when
  /// it does not exist; an existing one is checked like any other. `ownerUID` is navd's uid.
  public static func open(
    _ path: String, for use: DirectoryUse, creating mode: UInt32? = nil, group: UInt32? = nil,
    ownerUID: UInt32 = geteuid()
  ) throws(SafeDirectoryError) -> SafeDirectory {
    let (parentPath, name) = split(path)
    let parent = Glibc.open(parentPath, openPathOnly | O_DIRECTORY | O_CLOEXEC)
    guard parent >= 0 else { throw .system("open", errno: errno, path: parentPath) }
    defer { close(parent) }
    var created = false
    if let mode {
      if mkdirat(parent, name, mode_t(mode)) == 0 {
        created = true
      } else if errno != EEXIST {
        throw .system("mkdir", errno: errno, path: path)
      }
    }
    var fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    // `fchmod` and `fchown` below need a readable descriptor; a directory just made is readable.
    if fd < 0, errno == EACCES, !created {
      fd = openat(parent, name, openPathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    }
    guard fd >= 0 else {
      let error = errno
      var info = stat()
      if fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
        if info.st_mode & S_IFMT == S_IFLNK { throw .symbolicLink(path: path, target: linkTarget(parent, name)) }
        if info.st_mode & S_IFMT != S_IFDIR { throw .notADirectory(path: path) }
      }
      throw .system("open", errno: error, path: path)
    }
    let directory = SafeDirectory(path: path, fd: fd)
    if created, let mode {
      // The umask may have narrowed the mode; set it exactly on what we just made.
      guard fchmod(fd, mode_t(mode)) == 0 else { throw .system("fchmod", errno: errno, path: path) }
      if let group, fchown(fd, UInt32.max, group) != 0 { throw .system("fchown", errno: errno, path: path) }
    }
    try directory.check(ownerUID: ownerUID, use: use)
    return directory
  }

  /// A path naming `name` inside this directory through the descriptor, for calls that
  /// take only a path (`bind`, `connect`): `/proc/self/fd/N/NAME`.
  public func path(of name: String) -> String { "/proc/self/fd/\(fd)/\(name)" }

  /// `path`'s parent and last component (`.` when there is no slash); trailing slashes ignored.
  public static func split(_ path: String) -> (parent: String, name: String) {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
    let parent = trimmed[..<slash]
    let name = trimmed[trimmed.index(after: slash)...]
    return (parent.isEmpty ? "/" : String(parent), name.isEmpty ? "." : String(name))
  }

  private func check(ownerUID: UInt32, use: DirectoryUse) throws(SafeDirectoryError) {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .system("fstat", errno: errno, path: path) }
    let owner = info.st_uid
    guard owner == ownerUID || owner == 0 else {
      throw .foreignOwner(path: path, owner: owner, expected: ownerUID, use: use)
    }
    let mode = UInt32(info.st_mode) & 0o7777
    guard mode & 0o022 != 0 else { return }
    let sharedSticky = owner == 0 && ownerUID != 0 && mode & UInt32(S_ISVTX) != 0
    guard !sharedSticky else { return }
    throw .writableByOthers(path: path, mode: mode, owner: owner, navdUID: ownerUID, use: use)
  }

  /// Linux's `O_PATH` (every architecture's value), which Glibc's module leaves out
  /// without `_GNU_SOURCE`.
  private static let openPathOnly: Int32 = 0o10_000_000

  private static func linkTarget(_ parent: Int32, _ name: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4097)
    let n = readlinkat(parent, name, &buffer, 4096)
    guard n >= 0 else { return nil }
    return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
