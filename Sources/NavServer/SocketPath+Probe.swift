import CNavSys
import NavModel

#if canImport(Glibc)
  import Glibc
#endif

/// What answers on a socket path navd wanted to bind: so the refusal says what was found,
/// not "another navd" for any program that listens there.
public struct ListenerProbe: Sendable, Hashable, CustomStringConvertible {
  /// The uid that owns the socket file.
  public let fileOwner: UInt32
  /// The listening process (SO_PEERCRED on the connection: the listener's credentials
  /// when it called listen), when the kernel gave them.
  public let listenerPID: Int32?
  /// The listening process's uid.
  public let listenerUID: UInt32?
  /// Whether it answered org.varlink.service.GetInfo with product "navd".
  public let answeredAsNavd: Bool

  /// "another navd (pid P, uid U)" or "a program that did not answer as navd (pid P,
  /// uid U; the socket file is owned by uid O)".
  public var description: String {
    let who = [listenerPID.map { "pid \($0)" }, listenerUID.map { "uid \($0)" }].compactMap { $0 }
    let process = who.isEmpty ? "" : " (\(who.joined(separator: ", ")))"
    if answeredAsNavd { return "another navd\(process)" }
    let owner = "the socket file is owned by uid \(fileOwner)"
    let details = who.isEmpty ? " (\(owner))" : " (\(who.joined(separator: ", ")); \(owner))"
    return "a program that did not answer as navd\(details)"
  }

  /// How long the probe waits for the listener's answer.
  static let timeoutMilliseconds: Int32 = 1000

  /// Connects to `path` (blocking, bounded by `timeoutMilliseconds`), reads the peer's
  /// credentials and asks org.varlink.service.GetInfo; nil when nothing accepts there.
  static func probe(_ path: String, fileOwner: UInt32) -> ListenerProbe? {
    let fd = cnav_unix_stream_socket(0)
    guard fd >= 0 else { return nil }
    defer { Syscall.close(fd) }
    _ = cnav_set_timeouts(fd, timeoutMilliseconds)
    guard cnav_connect_unix(fd, path) == 0 else { return nil }
    var credentials = cnav_ucred()
    let known = cnav_peer_credentials(fd, &credentials) == 0
    let question = Array(#"{"method":"org.varlink.service.GetInfo"}"#.utf8) + [0]
    let sent = question.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(CNAV_MSG_NOSIGNAL)) }
    return ListenerProbe(
      fileOwner: fileOwner, listenerPID: known ? credentials.pid : nil, listenerUID: known ? credentials.uid : nil,
      answeredAsNavd: sent == question.count && isNavdInfo(readFrame(fd)))
  }

  /// One NUL-terminated reply (at most 64 KiB), or what arrived before the timeout.
  private static func readFrame(_ fd: Int32) -> [UInt8] {
    var reply: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while reply.count < 1 << 16, !reply.contains(0) {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      reply += chunk[..<count]
    }
    return reply
  }

  private static func isNavdInfo(_ frame: [UInt8]) -> Bool {
    guard let end = frame.firstIndex(of: 0), let reply = try? JSONParser.parse(frame[..<end]) else { return false }
    return reply["parameters"]?["product"] == .string("navd")
  }
}
