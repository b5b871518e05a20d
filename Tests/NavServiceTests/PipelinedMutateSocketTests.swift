import NavModel
import NavWire
import Testing
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

/// PROTOCOL.md §2 "Pipelining" over a real Unix socket, through io.navd and the engine
/// as navd wires them (calls run on the server's event-loop executor).
@Suite("PROTOCOL §2 pipelining over a real socket: Mutates applied and answered in the order sent")
struct PipelinedMutateSocketTests {
  @Test("PROTOCOL §2 200 pipelined Mutates on one connection: replies in call order, versions strictly increasing")
  func pipelinedMutates() async throws {
    let store = GroupRecordingStore(delay: .milliseconds(2))
    try await withNavdOnSocket(store: store) { path in try Self.exchange(path: path, store: store) }
  }

  private static func exchange(path: String, store: GroupRecordingStore) throws {
    let client = try SocketClient(path: path)
    var calls: [UInt8] = []
    calls += mutateFrame(["op": "push", "item": ["id": "root", "title": "start"]])
    // Every tenth call is a read: it runs alone, after the Mutates before it are stored.
    var expected: [String] = ["Mutate"]
    for i in 1..<200 {
      if i % 10 == 0 {
        calls += VarlinkCall(method: "io.navd.GetState", parameters: ["scene": "main"]).encoded()
        expected.append("GetState")
      } else {
        let set: JSONValue = ["title": .string("t\(i)")]
        calls += mutateFrame(["op": "updateNavigationItem", "item": "root", "set": set])
        expected.append("Mutate")
      }
    }
    try client.send(calls)

    var versions: [Int] = []
    for (index, kind) in expected.enumerated() {
      let reply = try client.readReply()
      #expect(reply.error == nil, "reply \(index): \(reply)")
      switch kind {
      case "Mutate":
        #expect(reply.parameters["overwritten"] != nil, "reply \(index) should answer a Mutate: \(reply)")
        versions.append(Int(reply.parameters["version"]?.numberValue ?? -1))
      default:
        #expect(reply.parameters["state"] != nil, "reply \(index) should answer a GetState: \(reply)")
        let version = Int(reply.parameters["version"]?.numberValue ?? -1)
        #expect(version == versions.last, "reply \(index): a read sees every write sent before it")
      }
    }
    #expect(versions == Array(1...versions.count), "Mutates applied in the order sent")
    let groups = store.groups.withLock { $0 }
    print("200 pipelined calls (181 Mutates) were stored in \(groups.count) groups: \(groups)")
    #expect(groups.reduce(0, +) == 181)
    #expect(groups.contains { $0 > 1 }, "pipelined Mutates on one connection form groups")

    try client.send(VarlinkCall(method: "io.navd.GetState", parameters: ["scene": "main"]).encoded())
    let last = try client.readReply()
    let title = last.parameters["state"]?["navigationBar"]?["items"]?.arrayValue?.first?["title"]
    #expect(title == "t199", "the last Mutate sent is the last applied")
  }
}

/// A blocking Varlink client with a 10 s receive timeout, so a failure cannot hang.
final class SocketClient {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let fd: Int32
  private var decoder = VarlinkFrameDecoder(maxFrameBytes: 64 << 20)

  init(path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: bytes)
      buffer[bytes.count] = 0
    }
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      close(fd)
      throw Failure(description: "connect \(path): errno \(errno)")
    }
  }

  deinit { close(fd) }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(description: "send: errno \(errno)")
      }
      offset += n
    }
  }

  func readReply() throws -> VarlinkReply {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      if let frame = decoder.nextFrame() { return try VarlinkReply(frame: frame[...]) }
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { throw Failure(description: "no reply: read returned \(n), errno \(errno)") }
      try buffer.withUnsafeBytes { try decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
    }
  }
}
