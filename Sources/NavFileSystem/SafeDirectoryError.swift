import NavSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Why a directory is refused: which check failed and what to do about it.
///
/// The advice never changes a directory navd does not own alone: a shared system directory
/// (one with the sticky bit, such as /tmp, /var/tmp or /dev/shm; one owned by root when navd
/// is not root; one of the hierarchy's shared directories, such as /var/local) is left as
/// it is, and navd is given another directory (`DirectoryUse.alternative`). Only for a
/// directory of navd's own user is removing the write access (`chmod go-w`) suggested too.
public enum SafeDirectoryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The last component is a symbolic link.
  case symbolicLink(path: String, target: String?)
  /// Something other than a directory is there.
  case notADirectory(path: String)
  /// Owned by someone other than navd's uid (`expected`) and root.
  case foreignOwner(path: String, owner: UInt32, expected: UInt32, use: DirectoryUse)
  /// Its group or others may write it (and it is not a root-owned sticky directory with navd
  /// not root); `navdUID` is navd's uid.
  case writableByOthers(path: String, mode: UInt32, owner: UInt32, navdUID: UInt32, use: DirectoryUse)
  /// A system call failed.
  case system(String, errno: Int32, path: String)

  /// What is wrong with the directory and what to do, naming the path.
  public var description: String {
    switch self {
    case .symbolicLink(let path, let target):
      "\(path) is a symbolic link\(target.map { " (to \($0))" } ?? ""); navd does not follow a link here, "
        + "since whoever owns the link decides where navd's files go: remove it or give the real directory"
    case .notADirectory(let path): "\(path) exists and is not a directory"
    case .foreignOwner(let path, let owner, let expected, let use):
      "\(path) is owned by uid \(owner), not by navd's uid \(expected) or root: that user"
        + (Accounts.userName(owner).map { " (\($0))" } ?? "") + " could replace \(use.contents) there; "
        + use.alternative(navdUID: expected)
    case .writableByOthers(let path, let mode, let owner, let navdUID, let use):
      Self.writable(path: path, mode: mode, owner: owner, navdUID: navdUID, use: use)
    case .system(let function, let errno, let path):
      "\(path): \(function) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
  }

  /// Whether `path` (owned by `owner`, `mode`) is a directory shared by the system rather
  /// than one of navd's user's own: sticky, root's while navd is not root, or one of the
  /// file system hierarchy's shared directories (`sharedSystemDirectories`).
  static func isSystemDirectory(_ path: String, mode: UInt32, owner: UInt32, navdUID: UInt32) -> Bool {
    guard mode & UInt32(S_ISVTX) == 0 else { return true }
    guard owner == 0 else { return false }
    return navdUID != 0 || sharedSystemDirectories.contains(path)
  }

  /// Directories root owns for everyone (the Filesystem Hierarchy Standard's, Debian's
  /// group-writable /var/local and /var/mail among them): never to be chmod'ed for navd.
  static let sharedSystemDirectories: Set<String> = [
    "/", "/tmp", "/var/tmp", "/dev/shm", "/run", "/run/lock", "/var/lock", "/var", "/var/local", "/var/mail",
    "/var/spool", "/var/spool/mail", "/var/lib", "/var/cache", "/usr", "/usr/local", "/srv", "/opt", "/home",
    "/mnt", "/media", "/etc",
  ]

  private static func writable(path: String, mode: UInt32, owner: UInt32, navdUID: UInt32, use: DirectoryUse)
    -> String
  {
    let byGroup = mode & 0o020 != 0
    let byOthers = mode & 0o002 != 0
    let who = byOthers ? (byGroup ? "its group and others" : "others") : "its group"
    let they = byOthers ? "any user" : "members of its group"
    let ownerName = Accounts.userName(owner) ?? "uid \(owner)"
    let problem =
      "\(path) is writable by \(who) (mode \(String(mode, radix: 8)), owner \(ownerName)): \(they) could replace "
      + "\(use.contents) there"
    let alternative = use.alternative(navdUID: navdUID)
    guard !isSystemDirectory(path, mode: mode, owner: owner, navdUID: navdUID) else {
      return "\(problem). It is a directory the system shares, not one to change: \(alternative)"
    }
    return "\(problem); remove that write access (chmod go-w \(path)), or \(alternative)"
  }
}
