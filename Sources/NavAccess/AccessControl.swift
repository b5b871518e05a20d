import NavConfig
import Synchronization

/// The policy in force, swapped atomically on reload. Thread-safe: every call reads
/// one consistent policy; a reload applies to calls checked after it.
public final class AccessControl: Sendable {
  private let current: Mutex<AccessPolicy>

  /// Starts with `policy`.
  public init(policy: AccessPolicy) {
    current = Mutex(policy)
  }

  /// Starts with the default: only `ownerUID` and root may do anything.
  public convenience init(ownerUID: UInt32) {
    self.init(policy: AccessPolicy(ownerUID: ownerUID))
  }

  /// The policy in force now.
  public var policy: AccessPolicy { current.withLock { $0 } }

  /// Reads `files` and, only when they are valid, puts their policy in force (same owner).
  /// An invalid policy throws (file, line, key, reason) and the old one stays.
  @discardableResult
  public func reload(
    from files: [ConfigFile], identities: some IdentityResolver = SystemIdentities()
  ) throws(ConfigError) -> AccessPolicy {
    let owner = policy.ownerUID
    let next = try AccessPolicy.load(from: files, ownerUID: owner, identities: identities)
    current.withLock { $0 = next }
    return next
  }
}
