import NavModel
import NavServer
import NavWire
import Synchronization
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

/// A call context with no socket: records what the service answers and lets
/// the test pull a stream, so io.navd can be tested without IO.
final class InMemoryCallContext: CallContext {
  enum Answer: Sendable, Equatable {
    case reply(JSONValue)
    case error(String, JSONValue)
    case streaming
  }

  /// This process's own uid by default: navd's default policy gives it every right.
  let peer: PeerCredentials
  let connectionID: UInt64
  private let state = Mutex<(answer: Answer?, source: (any ReplySource)?, closed: String?)>((nil, nil, nil))
  private let answered = AsyncStream<Void>.makeStream()

  init(connectionID: UInt64 = 1, peer: PeerCredentials = PeerCredentials(pid: 1, uid: getuid(), gid: getgid())) {
    self.connectionID = connectionID
    self.peer = peer
  }

  func reply(_ parameters: JSONValue) { settle(.reply(parameters), source: nil) }
  func fail(_ error: some VarlinkError) { settle(.error(error.errorName, error.errorParameters), source: nil) }
  func stream(from source: any ReplySource) { settle(.streaming, source: source) }
  func sourceHasData() {}
  func close(reason: String) { state.withLock { $0.closed = reason } }

  private func settle(_ answer: Answer, source: (any ReplySource)?) {
    let first = state.withLock { s -> Bool in
      guard s.answer == nil else { return false }
      s.answer = answer
      s.source = source
      return true
    }
    precondition(first, "a call was ended twice")
    answered.continuation.yield()
    answered.continuation.finish()
  }

  /// Waits for the service to end (or stream) the call.
  func answer() async -> Answer {
    for await _ in answered.stream { break }
    return state.withLock { $0.answer! }
  }

  /// The streamed replies pending now, decoded (frames are `{"parameters":…,"continues":true}\0`).
  func pullStream() throws -> [JSONValue] {
    guard let source = state.withLock({ $0.source }) else { return [] }
    let bytes = source.pull().bytes
    return try bytes.split(separator: 0).map { frame in
      let message = try JSONParser.parse(frame)
      guard message["continues"] == true, let parameters = message["parameters"] else {
        throw VarlinkProtocolError(.notAnObject, "stream frame without continues/parameters")
      }
      return parameters
    }
  }

  func cancelStream() { state.withLock { $0.source }?.cancelled() }
}

/// Calls the service and waits for its answer.
func call(
  _ service: some CallHandler, _ method: String, _ parameters: JSONValue = [:], more: Bool = false,
  connection: UInt64 = 1, peer: PeerCredentials = PeerCredentials(pid: 1, uid: getuid(), gid: getgid())
) async -> (InMemoryCallContext, InMemoryCallContext.Answer) {
  let context = InMemoryCallContext(connectionID: connection, peer: peer)
  service.handle(
    VarlinkCall(method: "io.navd.\(method)", parameters: parameters.objectValue ?? [:], more: more), context: context)
  return (context, await context.answer())
}
