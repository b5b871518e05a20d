#if canImport(Glibc)
  import Glibc
#endif

/// Names and home directories from the user and group databases (`getpwuid_r`,
/// `getgrgid_r`: /etc/passwd, /etc/group and whatever NSS adds), for messages that say
/// "owned by navd" rather than "uid 997", and for the state directory's last default.
public enum Accounts {
  /// The name of user `uid`; nil when the database has none.
  public static func userName(_ uid: UInt32) -> String? { passwordEntry(uid)?.name }

  /// The home directory of user `uid`; nil when the database has none (or an empty one).
  public static func homeDirectory(_ uid: UInt32) -> String? {
    guard let home = passwordEntry(uid)?.home, !home.isEmpty else { return nil }
    return home
  }

  /// The name of group `gid`; nil when the database has none.
  public static func groupName(_ gid: UInt32) -> String? {
    var entry = group()
    var result: UnsafeMutablePointer<group>?
    var buffer = [CChar](repeating: 0, count: 64 * 1024)
    guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name
    else { return nil }
    return String(cString: name)
  }

  /// Whether the databases make user `uid` a member of group `gid`: listed among the group's
  /// members, or the group is the user's primary one. This process's own groups may differ
  /// (they are fixed at login).
  public static func isMember(_ uid: UInt32, of gid: UInt32) -> Bool {
    guard let user = passwordEntry(uid) else { return false }
    if user.gid == gid { return true }
    var entry = group()
    var result: UnsafeMutablePointer<group>?
    var buffer = [CChar](repeating: 0, count: 64 * 1024)
    guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil, var member = entry.gr_mem
    else { return false }
    while let name = member.pointee {
      if String(cString: name) == user.name { return true }
      member += 1
    }
    return false
  }

  /// `name (uid N)`, or `uid N` when the user has no name.
  public static func describeUser(_ uid: UInt32) -> String {
    userName(uid).map { "\($0) (uid \(uid))" } ?? "uid \(uid)"
  }

  /// `name (gid N)`, or `gid N` when the group has no name.
  public static func describeGroup(_ gid: UInt32) -> String {
    groupName(gid).map { "\($0) (gid \(gid))" } ?? "gid \(gid)"
  }

  private static func passwordEntry(_ uid: UInt32) -> (name: String, home: String, gid: UInt32)? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 16 * 1024)
    guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
    return (
      entry.pw_name.map { String(cString: $0) } ?? "", entry.pw_dir.map { String(cString: $0) } ?? "", entry.pw_gid
    )
  }
}
