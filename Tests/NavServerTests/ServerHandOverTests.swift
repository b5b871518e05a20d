import Foundation
import NavModel
import NavWire
import Synchronization
import Testing
import Varlink

@testable import NavServer

#if canImport(Glibc)
  import Glibc
#endif

/// A stream of numbers that can resume: `Count(from)` sends from+1, from+2, … on `push()`.
private final class CountSource: ReplySource {
  private let state: Mutex<(next: Int, pending: [UInt8], sent: Int)>
  let context: any CallContext

  init(from: Int, context: any CallContext) {
    self.context = context
    state = Mutex((from + 1, [], from))
  }

  func push() {
    state.withLock { s in
      s.pending += VarlinkReply.encoded(parameters: ["n": .number(Double(s.next))], continues: true)
      s.next += 1
    }
    context.sourceHasData()
  }

  func pull() -> (bytes: [UInt8], finished: Bool) {
    state.withLock { s in
      defer { s.pending = [] }
      s.sent = s.next - 1
      return (s.pending, false)
    }
  }

  func cancelled() {}

  func handOverParameters() -> [String: JSONValue]? { ["from": .number(Double(state.withLock { $0.sent }))] }
}

private final class CountHandler: CallHandler {
  let sources = Mutex<[CountSource]>([])

  func handle(_ call: VarlinkCall, context: any CallContext) {
    switch call.methodName {
    case "Count":
      let source = CountSource(from: Int(call.parameters["from"]?.numberValue ?? 0), context: context)
      sources.withLock { $0.append(source) }
      context.stream(from: source)
    default:
      context.reply(.object(call.parameters))
    }
  }

  var last: CountSource? { sources.withLock { $0.last } }
}

@Suite("Server: hand-over to a successor (issue 10, restart without dropping clients)", .serialized)
struct ServerHandOverTests {
  static let interface = InterfaceDescription(
    name: "org.example.count",
    text: """
      interface org.example.count
      method Count(from: ?int) -> (n: int)
      method Echo(value: ?string) -> (value: ?string)

      """)

  private func makeServer(
    _ listener: ServerConfiguration.Listener, adopted: [AdoptedConnection] = [], handler: CountHandler
  )
    throws -> VarlinkServer
  {
    var configuration = ServerConfiguration(listener: listener)
    configuration.adopted = adopted
    let server = VarlinkServer(
      configuration: configuration, interfaces: [Self.interface], handler: handler, log: Log(minimumLevel: .error))
    try server.start()
    return server
  }

  @Test("Restart: idle connections and resumable streams move to the successor; the listener keeps its backlog")
  func handOver() throws {
    var template = Array("/tmp/navd-handover-XXXXXX".utf8CString)
    let directory = String(cString: try #require(mkdtemp(&template)))
    let path = directory + "/navd.sock"
    defer {
      unlink(path)
      rmdir(directory)
    }
    let first = CountHandler()
    let server = try makeServer(.path(path), handler: first)
    let idle = try TestClient(path: path, timeoutMilliseconds: 5000)
    try idle.call("org.example.count.Echo", ["value": "a"])
    #expect(try idle.readReply().parameters["value"] == "a")
    let streaming = try TestClient(path: path, timeoutMilliseconds: 5000)
    try streaming.call("org.example.count.Count", ["from": 0], more: true)
    #expect(eventually { first.last != nil })
    first.last?.push()
    #expect(try streaming.readReply().parameters["n"] == 1)

    let receipt = server.stopForHandOver(finalReply: [0], timeout: .seconds(5))
    server.waitUntilStopped()
    let handOver = try #require(receipt.handOver)
    #expect(handOver.connections.count == 2)
    #expect(access(path, F_OK) == 0, "the socket file stays for the successor")
    let waiting = try TestClient(path: path, timeoutMilliseconds: 5000)  // queues in the backlog
    try waiting.call("org.example.count.Echo", ["value": "queued"])

    let second = CountHandler()
    let successor = try makeServer(
      .fileDescriptor(handOver.listenerFD, path: path), adopted: handOver.connections, handler: second)
    defer {
      successor.stop()
      successor.waitUntilStopped()
    }
    #expect(try waiting.readReply().parameters["value"] == "queued")
    try idle.call("org.example.count.Echo", ["value": "b"])
    #expect(try idle.readReply().parameters["value"] == "b")
    #expect(eventually { second.last != nil }, "the stream's call was repeated in the successor")
    second.last?.push()
    #expect(try streaming.readReply().parameters["n"] == 2, "the stream continues where it stopped")
  }
}
