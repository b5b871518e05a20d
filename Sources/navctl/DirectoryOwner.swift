import NavStore
import NavSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Root restoring (or exporting) a service's state works as the state directory's owner.
///
/// The system service's `/var/lib/navd` belongs to the user navd runs as. Root writing
/// there as root would leave files navd cannot open (or, refused as it was before, send
/// the administrator to `runuser`); changing the directory's owner breaks the service.
/// So navctl, run as root on a directory another user owns, becomes that user (and the
/// directory's group, with no supplementary groups) for the rest of the process before it
/// opens anything there: every file it or SQLite creates (`navd.db`, its `-wal` and
/// `-shm`, `navd.lock`) then has the owner and group navd expects, mode 0600, and
/// nothing in a directory that user controls (a planted link, a swapped file) is touched
/// with root's rights. This is one-way: the process never regains root.
enum DirectoryOwner {
  /// Who navctl acts as.
  struct Identity: Equatable {
    var uid: UInt32
    var gid: UInt32
  }

  /// When navctl is root and `directory` exists and belongs to another user, becomes that
  /// user; returns the identity taken on, nil when nothing changed (not root, root's own
  /// directory, or none there yet: navctl creates it, as root, only when given `--state-dir`).
  static func adopt(_ directory: String) throws(Refusal) -> Identity? {
    guard geteuid() == 0 else { return nil }
    var info = stat()
    // lstat: a link is refused by the directory checks that follow; its owner decides nothing.
    guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid != 0 else { return nil }
    let identity = Identity(uid: info.st_uid, gid: info.st_gid)
    // Groups first: once the uid is not 0 they can no longer be changed.
    guard setgroups(0, nil) == 0 else { throw Refusal(call: "setgroups", directory: directory, identity) }
    // Called by root, setgid and setuid set the real, effective and saved ids alike.
    guard setgid(identity.gid) == 0 else { throw Refusal(call: "setgid", directory: directory, identity) }
    guard setuid(identity.uid) == 0 else { throw Refusal(call: "setuid", directory: directory, identity) }
    return identity
  }

  /// `user:group` for messages (names when the databases have them).
  static func describe(_ identity: Identity) -> String {
    "\(Accounts.userName(identity.uid) ?? "uid \(identity.uid)"):\(Accounts.groupName(identity.gid) ?? "gid \(identity.gid)")"
  }

  /// Becoming the directory's owner failed (a seccomp filter, a user namespace without the mapping).
  struct Refusal: Error, CustomStringConvertible {
    var description: String

    init(call: String, directory: String, _ identity: Identity) {
      let error = errno
      description =
        "\(directory) belongs to \(DirectoryOwner.describe(identity)) and navctl, run as root, works there as its "
        + "owner, but \(call) failed: \(String(cString: strerror(error))) (errno \(error)); run navctl as that user "
        + "(runuser -u \(Accounts.userName(identity.uid) ?? "\(identity.uid)") -- navctl …)"
    }
  }

  /// The directory's checks failed once navctl worked as its owner: said with who that is,
  /// since navd, running as the same user, would fail the same way.
  struct Unreachable: Error, CustomStringConvertible {
    var refusal: StateDirectory.Refusal
    var owner: Identity

    var description: String {
      "\(refusal) (navctl, run as root, works here as \(DirectoryOwner.describe(owner)), the directory's owner, "
        + "as navd does: every directory above it must let that user in)"
    }
  }
}
