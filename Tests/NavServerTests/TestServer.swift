import Foundation
import NavModel
import NavService
import NavWire
import Synchronization
import Varlink

@testable import NavServer

#if canImport(Glibc)
  import Glibc
#endif

/// A server on a socket in a fresh temporary directory, stopped by `stop()`.
final class TestServer {
  let directory: String
  let path: String
  let server: VarlinkServer
  let handler: TestHandler

  static let interface = InterfaceDescription(
    name: "org.example.test",
    text: """
      interface org.example.test
      method Echo(value: ?string) -> (value: ?string)
      method Watch(count: ?int) -> (n: int)

      """)

  init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
    var template = Array("/tmp/navd-test-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw TestClient.Failure(description: "mkdtemp failed") }
    directory = String(cString: made)
    path = directory + "/navd.sock"
    var configuration = ServerConfiguration(socketPath: path)
    configuration.serveNavd()
    configure(&configuration)
    handler = TestHandler()
    server = VarlinkServer(
      configuration: configuration, interfaces: [Self.interface], handler: handler,
      log: Log(minimumLevel: ProcessInfo.processInfo.environment["NAVD_TEST_LOG"] == nil ? .error : .debug))
    try server.start()
  }

  func client(timeoutMilliseconds: Int32 = 30_000) throws -> TestClient {
    try TestClient(path: path, timeoutMilliseconds: timeoutMilliseconds)
  }

  func stop() {
    server.stop()
    server.waitUntilStopped()
    rmdir(directory)
  }
}

/// Echo, endless streams and floods, for socket tests. Thread-safe.
final class TestHandler: CallHandler {
  let sources = Mutex<[TestSource]>([])
  /// `Echo` calls handled so far.
  let echoed = Atomic<Int>(0)

  func handle(_ call: VarlinkCall, context: any CallContext) {
    switch call.methodName {
    case "Echo":
      echoed.add(1, ordering: .releasing)
      context.reply(.object(call.parameters))
    case "EchoLater":
      // Answer from another thread after a random delay: order must still hold.
      let parameters = call.parameters
      DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...500))) {
        context.reply(.object(parameters))
      }
    case "Publish":
      // A writer: queue an update to every open stream first, then reply (as the engine does).
      let n = Int(call.parameters["n"]?.numberValue ?? 0)
      for source in sources.withLock({ $0 }) where source.cancelCount == 0 { source.push(n) }
      context.reply(["n": .number(Double(n))])
    case "Watch", "Flood":
      let count = call.parameters["count"]?.numberValue.map { Int($0) }
      let source = TestSource(
        context: context, finiteCount: count, flood: call.methodName == "Flood")
      sources.withLock { $0.append(source) }
      context.stream(from: source)
    default:
      context.fail(MethodNotFound(method: call.method))
    }
  }

  var lastSource: TestSource? { sources.withLock { $0.last } }
}

/// A streaming source: `push()` queues an update; `Flood` produces 64 KiB per pull and
/// signals again at once (a producer that never coalesces); a finite one ends after `count`.
final class TestSource: ReplySource {
  private struct State {
    var pending: [[UInt8]] = []
    var sent = 0
    var cancelled = 0
  }

  private let state = Mutex(State())
  let context: any CallContext
  let finiteCount: Int?
  let flood: Bool

  init(context: any CallContext, finiteCount: Int?, flood: Bool) {
    self.context = context
    self.finiteCount = finiteCount
    self.flood = flood
    if let finiteCount {
      state.withLock { state in
        for n in 0..<finiteCount {
          state.pending.append(VarlinkReply.encoded(parameters: ["n": .number(Double(n))], continues: true))
        }
        state.pending.append(VarlinkReply.encoded(parameters: ["n": .number(Double(finiteCount))]))
      }
    }
  }

  /// Queues update `n`, padded with `padding` bytes of filler, and signals.
  func push(_ n: Int, padding: Int = 0) {
    var parameters: [String: JSONValue] = ["n": .number(Double(n))]
    if padding > 0 { parameters["pad"] = .string(String(repeating: "p", count: padding)) }
    let frame = VarlinkReply.encoded(parameters: .object(parameters), continues: true)
    state.withLock { $0.pending.append(frame) }
    context.sourceHasData()
  }

  /// The connection the stream belongs to.
  var connectionID: UInt64 { context.connectionID }

  func pull() -> (bytes: [UInt8], finished: Bool) {
    if flood {
      let chunk = VarlinkReply.encoded(
        parameters: ["blob": .string(String(repeating: "f", count: 64 * 1024))], continues: true)
      context.sourceHasData()
      return (chunk, false)
    }
    return state.withLock { state in
      let bytes = state.pending.flatMap { $0 }
      state.sent += state.pending.count
      state.pending.removeAll()
      return (bytes, finiteCount != nil && state.sent == finiteCount! + 1)
    }
  }

  func cancelled() { state.withLock { $0.cancelled += 1 } }

  var cancelCount: Int { state.withLock { $0.cancelled } }
}
