/// Who may do what, as a pure value: `decide` reads nothing but its arguments.
///
/// The uid navd runs as and root get every right; everyone else gets exactly what
/// the rules grant, and nothing by default. The socket file's mode and group stay
/// the outer gate: a peer that cannot open the socket never reaches the policy.
public struct AccessPolicy: Sendable, Hashable {
  /// The uid navd runs as (it and root are always allowed).
  public var ownerUID: UInt32
  /// The `Allow=` entries in the order they were read.
  public var rules: [AccessRule]

  /// A policy granting `rules` on top of the owner and root.
  public init(ownerUID: UInt32, rules: [AccessRule] = []) {
    self.ownerUID = ownerUID
    self.rules = rules
  }

  /// Whether `peer` holds `right` for `scene`.
  ///
  /// `scene` nil asks for every scene at once (a grant without `scene:` or with
  /// `scene:*`); `admin` ignores `scene`. Use `mayUseSomewhere` to ask whether any
  /// scene at all is allowed.
  public func decide(right: AccessRight, scene: String?, peer: AccessPeer) -> Bool {
    if isTrusted(peer) { return true }
    return rules.contains { rule in
      rule.rights.contains(right) && rule.applies(to: peer) && (right == .admin || rule.covers(scene: scene))
    }
  }

  /// Whether `peer` holds `right` for at least one scene (gates ListScenes and calls
  /// whose scene parameter is missing or malformed, which then fail as usual).
  public func mayUseSomewhere(_ right: AccessRight, peer: AccessPeer) -> Bool {
    if isTrusted(peer) { return true }
    return rules.contains { $0.rights.contains(right) && $0.applies(to: peer) }
  }

  /// navd's own uid and root.
  public func isTrusted(_ peer: AccessPeer) -> Bool { peer.uid == 0 || peer.uid == ownerUID }
}
