#if canImport(Glibc)
  import Glibc
#endif

/// The system's user and group databases (`getpwnam_r`, `getgrnam_r`: /etc/passwd,
/// /etc/group and whatever NSS adds). Names are resolved when the policy is loaded.
public struct SystemIdentities: IdentityResolver {
  /// Creates the resolver.
  public init() {}

  /// The uid of user `name` (`getpwnam_r`); nil when there is no such user.
  public func uid(ofUser name: String) -> UInt32? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 16 * 1024)
    guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
    return entry.pw_uid
  }

  /// The gid of group `name` (`getgrnam_r`); nil when there is no such group.
  public func gid(ofGroup name: String) -> UInt32? {
    var entry = group()
    var result: UnsafeMutablePointer<group>?
    var buffer = [CChar](repeating: 0, count: 64 * 1024)
    guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
    return entry.gr_gid
  }
}
