#if canImport(Glibc)
  import Glibc
#endif

/// Why `connect` to a Unix socket failed with EACCES, said with what stands in the way: the
/// directory on the way that may not be searched, or the socket's owner, group and mode, and
/// what the caller can do (join the group, log in again, ask for the socket to be shared).
///
/// Connecting needs search (x) permission on every directory of the path and write
/// permission on the socket file; the mode class that applies is the owner's when the caller
/// owns the file, else the group's when the caller is in its group, else others'. The answer
/// reads the files as they are (`System.live`: `stat`, the caller's effective ids and groups,
/// the user and group databases); a test gives a `System` of its own.
public enum SocketPermission {
  /// A file's owner, group and permission bits (`st_mode & 0o7777`).
  public struct FileStatus: Sendable, Hashable {
    /// The owner.
    public var uid: UInt32
    /// The group.
    public var gid: UInt32
    /// The permission bits, `st_mode & 0o7777`.
    public var mode: UInt32

    /// A file owned by `uid` and `gid` with permission bits `mode`.
    public init(uid: UInt32, gid: UInt32, mode: UInt32) {
      self.uid = uid
      self.gid = gid
      self.mode = mode
    }
  }

  /// What the diagnosis reads: files, the caller, and the account databases.
  public struct System {
    /// `stat` of a path (following links, as `connect` does); nil when it fails.
    public var status: (String) -> FileStatus?
    /// The caller's effective uid.
    public var uid: UInt32
    /// The caller's effective gid and supplementary groups.
    public var groups: [UInt32]
    /// A user's name; nil when the database has none.
    public var userName: (UInt32) -> String?
    /// A group's name; nil when the database has none.
    public var groupName: (UInt32) -> String?
    /// Whether the group database makes user `uid` a member of group `gid` (a member
    /// listed there, or the user's primary group), whatever this process's groups are.
    public var isMember: (_ uid: UInt32, _ gid: UInt32) -> Bool

    /// A machine of the caller's choosing (tests).
    public init(
      status: @escaping (String) -> FileStatus?, uid: UInt32, groups: [UInt32],
      userName: @escaping (UInt32) -> String?, groupName: @escaping (UInt32) -> String?,
      isMember: @escaping (UInt32, UInt32) -> Bool
    ) {
      self.status = status
      self.uid = uid
      self.groups = groups
      self.userName = userName
      self.groupName = groupName
      self.isMember = isMember
    }

    /// This process and this machine.
    public static var live: System {
      System(
        status: { path in
          var info = stat()
          guard stat(path, &info) == 0 else { return nil }
          return FileStatus(uid: info.st_uid, gid: info.st_gid, mode: UInt32(info.st_mode) & 0o7777)
        },
        uid: geteuid(), groups: currentGroups(), userName: Accounts.userName, groupName: Accounts.groupName,
        isMember: { Accounts.isMember($0, of: $1) })
    }

    private static func currentGroups() -> [UInt32] {
      let count = getgroups(0, nil)
      var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
      let filled = count > 0 ? getgroups(count, &groups) : 0
      return [getegid()] + groups.prefix(Int(max(filled, 0)))
    }
  }

  /// What is in the way (`problem`) and what to do about it (`remedy`).
  public struct Diagnosis: Sendable, Hashable, CustomStringConvertible {
    /// "permission denied connecting to P (owner O, group G, mode 0660): …", what is wrong.
    public var problem: String
    /// What the caller can do, for a client of the socket.
    public var remedy: String

    /// `problem: remedy`.
    public var description: String { "\(problem): \(remedy)" }
  }

  /// Why connecting to `path` (absolute) was refused with EACCES.
  public static func diagnose(_ path: String, system: System = .live) -> Diagnosis {
    let start = "permission denied connecting to \(path)"
    let directories = directoriesAbove(path)
    for directory in directories {
      guard let status = system.status(directory) else { break }
      guard !allows(status, 0o1, system) else { continue }
      let problem = "\(start): the directory \(directory) \(describe(status, system)) does not let you search it"
      return Diagnosis(problem: problem, remedy: remedy(for: status, bit: 0o1, system, what: "reach the socket in it"))
    }
    guard let status = system.status(path) else {
      return Diagnosis(problem: start, remedy: "the socket's mode or group does not admit this user")
    }
    let described = "\(start) \(describe(status, system))"
    guard !allows(status, 0o2, system) else {
      return Diagnosis(
        problem: "\(described): its mode lets you connect, so an access control list or a security module "
          + "(AppArmor, SELinux) refuses",
        remedy: "see getfacl \(path) and the system's security log")
    }
    let owner = name(ofUser: status.uid, system)
    let group = name(ofGroup: status.gid, system)
    let inGroup = system.groups.contains(status.gid)
    if status.uid == system.uid {
      return Diagnosis(
        problem: "\(described): its mode gives its owner no write permission, which connecting needs",
        remedy: "restart navd to make its socket again, or chmod u+w \(path)")
    }
    if status.mode & 0o020 == 0 {
      let why = inGroup ? "its group \(group) has no write permission" : "neither its group nor others may write it"
      return Diagnosis(
        problem: "\(described): only its owner \(owner) can connect (\(why))",
        remedy: "connect as \(owner), or ask navd's administrator to share the socket with a group "
          + "(navd --socket-group GROUP; for navd.socket, SocketGroup= with SocketMode=0660)")
    }
    return Diagnosis(
      problem: "\(described): you are not in its group \(group)",
      remedy: remedy(for: status, bit: 0o2, system, what: "connect"))
  }

  /// The directories `connect` searches on the way to `path`: `/`, then each prefix.
  static func directoriesAbove(_ path: String) -> [String] {
    var result = ["/"]
    var prefix = ""
    for component in path.split(separator: "/").dropLast() {
      prefix += "/" + component
      result.append(prefix)
    }
    return result
  }

  /// Whether the caller's mode class of `status` has `bit` (4 read, 2 write, 1 search); root may.
  static func allows(_ status: FileStatus, _ bit: UInt32, _ system: System) -> Bool {
    if system.uid == 0 { return true }
    if status.uid == system.uid { return status.mode & (bit << 6) != 0 }
    if system.groups.contains(status.gid) { return status.mode & (bit << 3) != 0 }
    return status.mode & bit != 0
  }

  /// What to do when the caller's class lacks `bit`: join the file's group when the group has
  /// it (or log in again when the database already says so), else ask the owner.
  private static func remedy(for status: FileStatus, bit: UInt32, _ system: System, what: String) -> String {
    let group = name(ofGroup: status.gid, system)
    let groupMayDo = status.mode & (bit << 3) != 0
    if groupMayDo, !system.groups.contains(status.gid) {
      if system.isMember(system.uid, status.gid) {
        return "you are in group \(group) in the group database, but this login began before you were added: "
          + "log in again (or run `newgrp \(group)`)"
      }
      return "add yourself to group \(group) (`sudo adduser $USER \(group)`) and log in again"
    }
    return "only its owner \(name(ofUser: status.uid, system)) (or root) can \(what); ask them for access, or use "
      + "another navd's socket (--socket PATH or NAVD_SOCKET)"
  }

  /// `(owner O, group G, mode 0NNN)`.
  static func describe(_ status: FileStatus, _ system: System) -> String {
    let digits = String(status.mode, radix: 8)
    let mode = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    return "(owner \(name(ofUser: status.uid, system)), group \(name(ofGroup: status.gid, system)), mode \(mode))"
  }

  private static func name(ofUser uid: UInt32, _ system: System) -> String { system.userName(uid) ?? "uid \(uid)" }

  private static func name(ofGroup gid: UInt32, _ system: System) -> String {
    system.groupName(gid) ?? "gid \(gid)"
  }
}
