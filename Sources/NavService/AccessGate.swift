import NavAccess
import NavModel
import NavServer
import NavWire
import Synchronization

extension NavMethod {
  /// The right a call of this method needs (PROTOCOL.md § Access).
  var requiredRight: AccessRight {
    switch self {
    case .getServerInfo, .listScenes, .getState, .getLayout, .subscribe, .watchActions, .export: .read
    case .mutate, .activate, .deleteScene: .write
    case .getStatistics: .admin
    }
  }
}

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

  /// The context to run `call` with, or nil when it was denied (and answered
  /// `PermissionDenied`, logged once by the context with the peer and the missing right).
  ///
  /// A call naming a scene needs the method's right for that scene. A call without a
  /// usable scene parameter needs the right for some scene, then fails its parameter
  /// check as usual. ListScenes needs `read` somewhere and lists only readable scenes;
  /// GetServerInfo needs any right (read or write somewhere, or admin).
  func admit(_ method: NavMethod, _ call: VarlinkCall, _ context: any CallContext) -> (any CallContext)? {
    let policy = control.policy
    let peer = context.peer.accessPeer
    // navd's own uid and root hold every right on every scene (`AccessPolicy.isTrusted`):
    // admitted without reading the scene parameter out of the frame (a navd round trip went
    // from 55,715 to 55,235 instructions on the event loop, `bench/profile.sh`).
    if policy.isTrusted(peer) { return context }
    let right = method.requiredRight
    switch method {
    case .getStatistics:
      return policy.decide(right: .admin, scene: nil, peer: peer) ? context : deny(right, scene: nil, context)
    case .getServerInfo:
      let allowed = AccessRight.allCases.contains { policy.mayUseSomewhere($0, peer: peer) }
      return allowed ? context : deny(right, scene: nil, context)
    case .export:
      // Read on each scene exported: the handler checks the ones named or exports the readable ones.
      return policy.mayUseSomewhere(.read, peer: peer) ? context : deny(right, scene: nil, context)
    case .listScenes:
      guard policy.mayUseSomewhere(.read, peer: peer) else { return deny(right, scene: nil, context) }
      if policy.decide(right: .read, scene: nil, peer: peer) { return context }
      return ReadableScenesContext(context) { policy.decide(right: .read, scene: $0, peer: peer) }
    default:
      if case .string(let scene)? = call.parameter("scene") {
        return policy.decide(right: right, scene: scene, peer: peer) ? context : deny(right, scene: scene, context)
      }
      return policy.mayUseSomewhere(right, peer: peer) ? context : deny(right, scene: nil, context)
    }
  }

  /// Whether the call's peer may read each scene (always, for a trusted peer).
  func readableScenes(_ context: any CallContext) -> @Sendable (String) -> Bool {
    let policy = control.policy
    let peer = context.peer.accessPeer
    if policy.isTrusted(peer) { return { _ in true } }
    return { policy.decide(right: .read, scene: $0, peer: peer) }
  }

  /// Answers the call `PermissionDenied` for `right` (on `scene`), counted and logged; nil.
  @discardableResult
  func deny(_ right: AccessRight, scene: String?, _ context: any CallContext) -> (any CallContext)? {
    denials.count(right)
    let peer = context.peer
    var message = "the \(right) right"
    if let scene { message += " on scene \(scene)" }
    message += " is not granted to uid \(peer.uid) (gid \(peer.gid)); see navd(8), ACCESS POLICY"
    let denied = PermissionDenied(right: right.rawValue, scene: scene, message: message)
    context.fail(VarlinkServiceNames.permissionDenied, denied.parameters)
    return nil
  }
}
