#if canImport(Glibc)
  import Glibc
#endif

/// The system's user and group databases (`getpwnam_r`, `getgrnam_r`: /etc/passwd,
/// /etc/group and whatever NSS adds). Names are resolved when the policy is loaded.
public struct SystemIdentities: IdentityResolver {
  /// Creates the resolver.
  public init() {}

  public func uid(ofUser name: String) -> UInt32? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 16 * 1024)
    guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
    return entry.pw_uid
  }

  public func gid(ofGroup name: String) -> UInt32? {
    var entry = group()
    var result: UnsafeMutablePointer<group>?
    var buffer = [CChar](repeating: 0, count: 64 * 1024)
    guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
    return entry.gr_gid
  }
}
