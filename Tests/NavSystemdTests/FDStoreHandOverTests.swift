import CSystemd
import NavServer
import Testing

@testable import NavSystemd

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Adopting what a predecessor left in the fd store (issue 10, restart)")
struct FDStoreHandOverTests {
  /// One end of a socket pair, and the other end (`peer`), which reads EOF once every
  /// descriptor of `fd`'s end is closed.
  private func connectedSocket() -> (fd: Int32, peer: Int32) {
    var pair: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    return (pair[0], pair[1])
  }

  /// Whether `peer`'s other end is closed: a read that does not wait finds EOF, where an
  /// open end has nothing to read yet. Asked of the peer, not of the closed descriptor's
  /// number, which another test running in parallel may have been given again at once.
  private func otherEndClosed(_ peer: Int32) -> Bool {
    var byte: UInt8 = 0
    return recv(peer, &byte, 1, Int32(MSG_DONTWAIT)) == 0
  }

  private func record(_ text: String) -> Int32 {
    let fd = csd_memfd("navd-state")
    let bytes = Array(text.utf8)
    #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
    return fd
  }

  @Test("Restart: connections are matched to their record; a stream's call is repeated; names are listed for removal")
  func adopt() throws {
    let (idle, idlePeer) = connectedSocket()
    let (streaming, streamingPeer) = connectedSocket()
    let (orphan, orphanPeer) = connectedSocket()
    let call = #"{"method":"io.navd.Subscribe","parameters":{"scene":"main","sinceVersion":3,"epoch":"e"},"more":true}"#
    let state = record("navd-conn-1\t\nnavd-conn-2\t\(call)")
    let adopted = FDStoreHandOver.adopt(from: [
      PassedSocket(fd: 3, name: "navd"), PassedSocket(fd: state, name: "navd-state"),
      PassedSocket(fd: idle, name: "navd-conn-1"), PassedSocket(fd: streaming, name: "navd-conn-2"),
      PassedSocket(fd: orphan, name: "navd-conn-9"),
    ])
    #expect(adopted.others.map(\.name) == ["navd"])
    #expect(adopted.connections.count == 2)
    #expect(adopted.connections[0] == AdoptedConnection(fd: idle, resume: nil))
    let resume = try #require(adopted.connections[1].resume)
    #expect(resume.method == "io.navd.Subscribe" && resume.more && resume.parameters["sinceVersion"] == 3)
    #expect(adopted.dropped == 1, "a connection without a record is closed")
    #expect(otherEndClosed(orphanPeer), "and its descriptor is closed")
    #expect(!otherEndClosed(idlePeer) && !otherEndClosed(streamingPeer), "the adopted ones stay open")
    #expect(Set(adopted.names) == ["navd-state", "navd-conn-1", "navd-conn-2", "navd-conn-9"])
    for fd in [idle, streaming, idlePeer, streamingPeer, orphanPeer] { close(fd) }
  }
}
