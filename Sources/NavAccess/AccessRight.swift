/// What a call may do. Rights are independent: `write` does not imply `read`.
///
/// - `read`: reading scenes and following them.
/// - `write`: changing scenes.
/// - `admin`: server-wide details and administrative calls (never scoped to scenes).
///
/// Which method needs which right is its descriptor's (`NavMethod.descriptor` in NavWire).
public enum AccessRight: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case read
  case write
  case admin

  /// The right's name, as written in the policy (`read`, `write`, `admin`).
  public var description: String { rawValue }
}

/// Who is calling, as the kernel reports it (SO_PEERCRED and SO_PEERGROUPS).
public struct AccessPeer: Sendable, Hashable {
  /// The caller's effective uid.
  public var uid: UInt32
  /// The caller's effective primary gid.
  public var gid: UInt32
  /// The caller's supplementary groups (empty when unknown).
  public var groups: [UInt32]
  /// The caller's pid (for logs only; never used to decide).
  public var pid: Int32

  /// Creates a peer.
  public init(uid: UInt32, gid: UInt32, groups: [UInt32] = [], pid: Int32 = 0) {
    self.uid = uid
    self.gid = gid
    self.groups = groups
    self.pid = pid
  }

  /// Whether the peer is in group `gid`, as its primary or a supplementary group.
  public func isMember(of gid: UInt32) -> Bool { self.gid == gid || groups.contains(gid) }
}
