import CNavSys
// The shared system-call layer (Syscall, IOResult, SystemCallError) is NavSystem's;
// re-exported because the server's API throws SystemCallError.
@_exported import NavSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The server's own system calls, next to NavSystem's shared ones.
extension Syscall {
  /// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC.
  static func accept(_ fd: Int32) throws(SystemCallError) -> IOResult<Int32> {
    try call("accept4") { cnav_accept_nonblocking(fd) }
  }

  /// SO_PEERCRED (and SO_PEERGROUPS, when the kernel has it) of a connected Unix socket.
  static func peerCredentials(_ fd: Int32) throws(SystemCallError) -> PeerCredentials {
    var credentials = cnav_ucred()
    _ = try blocking("getsockopt(SO_PEERCRED)") { cnav_peer_credentials(fd, &credentials) }
    return PeerCredentials(
      pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, groups: peerGroups(fd))
  }

  /// The peer's supplementary groups; empty when the kernel cannot say (no SO_PEERGROUPS).
  private static func peerGroups(_ fd: Int32) -> [UInt32] {
    var capacity = 32
    for _ in 0..<2 {
      var groups = [gid_t](repeating: 0, count: capacity)
      var total: Int32 = 0
      guard cnav_peer_groups(fd, &groups, Int32(capacity), &total) == 0 else { return [] }
      if Int(total) <= capacity { return Array(groups.prefix(Int(total))) }
      capacity = min(Int(total), 65_536)
    }
    return []
  }
}
