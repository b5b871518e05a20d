import NavAccess
import NavModel
import NavServer
import NavWire
import Synchronization

/// The open streams that rely on a right the policy may take back (PROTOCOL.md §10
/// "Reload"): each Subscribe (waiting for its scene or not) and WatchActions stream of
/// a peer that is not trusted, with the scene and right it was admitted on.
///
/// A reload calls `revoke(under:)`: every stream the new policy no longer grants ends
/// with `PermissionDenied` (`revoked: true`) and its subscription is dropped; the
/// connection stays open for the calls the peer may still make. Trusted peers (root and
/// navd's own uid) keep every right whatever the policy says, so their streams are not
/// kept here. Thread-safe: streams start and end on the loop, reloads come from the
/// signal thread.
final class StreamGrants: Sendable {
  private struct Grant: Sendable {
    let source: SubscriberSource
    let peer: AccessPeer
    let uid: UInt32
    let gid: UInt32
    let scene: String
    let right: AccessRight
    let method: String
  }

  private let grants = Mutex<[UInt64: Grant]>([:])

  /// Keeps `source` (a stream of `method`, admitted for its right on `scene`) until it ends, unless `peer` is
  /// trusted; ends it at once when `policy` (the one in force now) no longer grants it,
  /// so a reload between the call's admission and this registration is not missed.
  func register(
    _ source: SubscriberSource, method: NavMethod, scene: String, peer: PeerCredentials, policy: AccessPolicy
  ) {
    let right = method.descriptor.right
    let accessPeer = peer.accessPeer
    guard !policy.isTrusted(accessPeer) else { return }
    let grant = Grant(
      source: source, peer: accessPeer, uid: peer.uid, gid: peer.gid, scene: scene, right: right,
      method: method.rawValue)
    grants.withLock { $0[source.subscriber.id] = grant }
    source.onEnd { [weak self] in self?.forget(source.subscriber.id) }
    if !policy.decide(right: right, scene: scene, peer: accessPeer) { end(grant) }
  }

  /// Ends every stream `policy` no longer grants; returns how many.
  @discardableResult
  func revoke(under policy: AccessPolicy) -> Int {
    let revoked = grants.withLock { grants in
      grants.values.filter { !policy.decide(right: $0.right, scene: $0.scene, peer: $0.peer) }
    }
    for grant in revoked { end(grant) }
    return revoked.count
  }

  /// Streams kept (tests).
  var count: Int { grants.withLock { $0.count } }

  private func forget(_ id: UInt64) {
    _ = grants.withLock { $0.removeValue(forKey: id) }
  }

  private func end(_ grant: Grant) {
    let message =
      "the \(grant.right) right on scene \(grant.scene) was revoked for uid \(grant.uid) (gid \(grant.gid)) "
      + "by a reload of the access policy; this \(grant.method) stream ends; see navd(8), ACCESS POLICY"
    let denied = PermissionDenied(right: grant.right.rawValue, scene: grant.scene, message: message, revoked: true)
    grant.source.end(
      with: denied.replyFrame)
  }
}
