import Foundation
import Testing

@testable import NavSystemd

#if canImport(Glibc)
  import Glibc
#endif

@Suite("A passed socket names its address (issue 26: the log said `fd 3 (unknown)`)")
struct PassedSocketTests {
  /// An AF_UNIX stream socket listening on `address` (raw bytes of sun_path); nil: unbound, not listening.
  static func listening(_ address: [UInt8]?) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    if let address {
      var storage = sockaddr_un()
      storage.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: address) }
      let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + address.count)
      let bound = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
      }
      try #require(bound == 0, "bind: \(String(cString: strerror(errno)))")
      try #require(listen(fd, 1) == 0)
    }
    return fd
  }

  @Test("a socket bound to a path gives that path")
  func path() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navd-passed-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/navd.sock"
    let fd = try Self.listening(Array(path.utf8))
    defer { close(fd) }
    #expect(PassedSocket(fd: fd, name: "navd").boundPath == path)
  }

  @Test("an abstract socket gives @NAME; an unbound one, and a closed descriptor, nil")
  func abstractAndUnnamed() throws {
    let abstract = try Self.listening([0] + Array("navd-test-\(getpid())".utf8))
    defer { close(abstract) }
    #expect(PassedSocket(fd: abstract, name: "x").boundPath == "@navd-test-\(getpid())")
    let unnamed = try Self.listening(nil)
    #expect(PassedSocket(fd: unnamed, name: "x").boundPath == nil)
    close(unnamed)
    #expect(PassedSocket(fd: unnamed, name: "x").boundPath == nil)
  }
}
