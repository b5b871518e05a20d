import NavAccess
import NavModel
import NavServer
import NavWire
import Synchronization
import Varlink

/// Denied calls by the right they lacked: one atomic per right, counted off the hot path
/// (a denial is logged too).
final class DenialCounts: Sendable {
  private let read = Atomic<Int>(0)
  private let write = Atomic<Int>(0)
  private let admin = Atomic<Int>(0)

  func count(_ right: AccessRight) {
    switch right {
    case .read: read.add(1, ordering: .relaxed)
    case .write: write.add(1, ordering: .relaxed)
    case .admin: admin.add(1, ordering: .relaxed)
    }
  }

  /// The rights with any denial, in the order read, write, admin.
  var counts: [NamedCount] {
    let counts = [
      ("read", read.load(ordering: .relaxed)), ("write", write.load(ordering: .relaxed)),
      ("admin", admin.load(ordering: .relaxed)),
    ]
    return counts.filter { $0.1 > 0 }.map { NamedCount(name: $0.0, count: $0.1) }
  }
}

extension PeerCredentials {
  /// The identity the access policy decides on.
  var accessPeer: AccessPeer { AccessPeer(uid: uid, gid: gid, groups: groups, pid: pid) }
}

/// Checks each io.navd call against the policy in force before any engine work, so a
/// denied call learns nothing (not even whether its scene exists).
struct AccessGate: Sendable {
  let control: AccessControl
  /// Calls denied so far, by the right they lacked (`GetStatistics`).
  let denials = DenialCounts()

  /// Whether `call` may run; when not, it was answered `PermissionDenied` (logged once by
  /// the context with the peer and the missing right).
  ///
  /// The method's descriptor says which right it needs and where (`NavMethodDescriptor.Scope`):
  /// a call naming a scene needs the right for that scene; one without a usable scene parameter
  /// needs it for some scene, then fails its parameter check as usual.
  func admit(_ method: NavMethod, _ call: VarlinkCall, _ context: any CallContext) -> Bool {
    let policy = control.policy
    let peer = context.peer.accessPeer
    // navd's own uid and root hold every right on every scene (`AccessPolicy.isTrusted`):
    // admitted without reading the scene parameter out of the frame.
    if policy.isTrusted(peer) { return true }
    let descriptor = method.descriptor
    let right = descriptor.right
    var scene: String?
    let allowed: Bool
    switch descriptor.scope {
    case .server: allowed = policy.decide(right: right, scene: nil, peer: peer)
    case .anyRight: allowed = AccessRight.allCases.contains { policy.mayUseSomewhere($0, peer: peer) }
    case .someScene: allowed = policy.mayUseSomewhere(right, peer: peer)
    case .scene:
      if case .string(let named)? = call.parameter("scene") {
        scene = named
        allowed = policy.decide(right: right, scene: named, peer: peer)
      } else {
        allowed = policy.mayUseSomewhere(right, peer: peer)
      }
    }
    if !allowed {
      if descriptor.scope == .anyRight {
        deny(
          right, scene: nil, context,
          needed: "\(method.rawValue) needs any right (read or write on some scene, or admin)")
      } else {
        deny(right, scene: scene, context)
      }
    }
    return allowed
  }

  /// Whether the call's peer may read each scene (always, for a trusted peer).
  func readableScenes(_ context: any CallContext) -> @Sendable (String) -> Bool {
    let policy = control.policy
    let peer = context.peer.accessPeer
    if policy.isTrusted(peer) { return { _ in true } }
    return { policy.decide(right: .read, scene: $0, peer: peer) }
  }

  /// Answers the call `PermissionDenied` for `right` (on `scene`), counted and logged. `needed`
  /// says what would admit a call that any of several rights admits (`right` is then the least
  /// of them, PROTOCOL.md §9.31).
  func deny(_ right: AccessRight, scene: String?, _ context: any CallContext, needed: String? = nil) {
    denials.count(right)
    let peer = context.peer
    let grantee = "uid \(peer.uid) (gid \(peer.gid)); see navd(8), ACCESS POLICY"
    var message: String
    if let needed {
      message = "\(needed); none is granted to \(grantee)"
    } else {
      message = "the \(right) right"
      if let scene { message += " on scene \(scene)" }
      message += " is not granted to \(grantee)"
    }
    let denied = PermissionDenied(right: right.rawValue, scene: scene, message: message)
    context.fail(denied)
  }
}
