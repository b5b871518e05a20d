/// One `Allow=` entry: a principal, the rights it gets, and where.
public struct AccessRule: Sendable, Hashable {
  /// Whom a rule grants to.
  public enum Principal: Sendable, Hashable, CustomStringConvertible {
    /// One user, by uid.
    case user(UInt32)
    /// Every member of a group (primary or supplementary), by gid.
    case group(UInt32)

    /// `uid N` or `gid N`, for messages.
    public var description: String {
      switch self {
      case .user(let uid): "uid \(uid)"
      case .group(let gid): "gid \(gid)"
      }
    }
  }

  /// Whom the rule grants to.
  public var principal: Principal
  /// The rights granted.
  public var rights: Set<AccessRight>
  /// The scenes `read` and `write` apply to; empty means every scene. (`admin` is server-wide.)
  public var scenes: [ScenePattern]

  /// Creates a rule.
  public init(principal: Principal, rights: Set<AccessRight>, scenes: [ScenePattern] = []) {
    self.principal = principal
    self.rights = rights
    self.scenes = scenes
  }

  /// Whether the rule applies to `peer`.
  public func applies(to peer: AccessPeer) -> Bool {
    switch principal {
    case .user(let uid): peer.uid == uid
    case .group(let gid): peer.isMember(of: gid)
    }
  }

  /// Whether the rule covers `scene` (nil: every scene at once).
  public func covers(scene: String?) -> Bool {
    if scenes.isEmpty { return true }
    guard let scene else { return scenes.contains(where: \.matchesEverything) }
    return scenes.contains { $0.matches(scene) }
  }
}
