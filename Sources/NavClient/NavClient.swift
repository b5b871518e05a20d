import NavModel
import NavSystem
import NavWire
import Varlink

/// A connection to navd: typed calls, the mutator, and document subscriptions.
///
/// Plain calls share one pipelined connection, opened on first use and reopened after it
/// breaks; each subscription (`updates`, `actions`, `replies`) opens its own, because a
/// streaming Varlink call owns its connection. All socket IO runs on Dispatch queues,
/// never on Swift's cooperative pool. Errors thrown are `NavClientError` (plus
/// `CancellationError`, and whatever a mutator closure throws).
public final class NavClient: Sendable {
  /// The socket this client connects to.
  public let socketPath: String
  /// Identifies this client to navd so a retried mutation is recognised (CONFLICTS.md I1).
  public let clientId: String
  /// How long a call may take, connecting included; nil waits forever. Streams are not limited.
  public let timeout: Duration?
  /// The longest request this client sends, in bytes without the terminating NUL: navd's
  /// default frame limit (`--max-frame-bytes`, PROTOCOL §9.13). A longer one throws
  /// `.requestTooLarge` without being sent.
  public static let maxRequestBytes = VarlinkFrameDecoder.defaultMaxFrameBytes
  /// Delays between reconnection attempts of subscriptions.
  let backoff: Backoff.Configuration
  let shared: SharedConnection

  /// Creates a client; nothing connects until the first call.
  ///
  /// - Parameters:
  ///   - socketPath: navd's socket; nil applies `NavClient.defaultSocketPath()`.
  ///   - clientId: sent with every mutation; nil picks a random id for this instance.
  ///   - timeout: limit for each call (navctl's `--timeout`); nil means none.
  public convenience init(socketPath: String? = nil, clientId: String? = nil, timeout: Duration? = nil) {
    self.init(socketPath: socketPath, clientId: clientId, timeout: timeout, backoff: .standard)
  }

  init(socketPath: String?, clientId: String?, timeout: Duration?, backoff: Backoff.Configuration) {
    let path = AbsolutePath.make(socketPath ?? Self.defaultSocketPath())
    self.socketPath = path
    self.clientId = clientId ?? Self.randomID()
    self.timeout = timeout
    self.backoff = backoff
    shared = SharedConnection(socketPath: path)
  }

  deinit {
    shared.close()
  }

  /// Closes the shared connection. Calls waiting on it fail with `.disconnected` (reads and
  /// mutations, which are safe to repeat, are first retried once on a new connection).
  ///
  /// The client stays usable: the next call connects again. Subscriptions are not affected;
  /// they end when their consuming task is cancelled or their iterator is dropped.
  public func close() {
    shared.close()
  }

  /// Sends one plain call on the shared connection and returns its reply parameters.
  ///
  /// With `retryOnDrop`, a connection that drops before the reply is replaced and the call
  /// sent once more — only for calls that are safe to repeat (reads, and mutations with a
  /// mutation id, which navd answers from memory).
  func perform(_ method: String, _ parameters: [String: JSONValue], retryOnDrop: Bool) async throws -> [String:
    JSONValue]
  {
    let deadline = Deadline(timeout: timeout)
    let call = VarlinkCall(method: method, parameters: parameters)
    var retried = false
    while true {
      let connection = try await shared.connection(deadline: deadline)
      let reply: VarlinkReply
      do {
        reply = try await connection.call(call, timeout: try deadline.remaining())
      } catch NavClientError.disconnected where retryOnDrop && !retried {
        retried = true
        continue
      }
      if let name = reply.error { throw NavClientError.remote(name: name, parameters: .object(reply.parameters)) }
      return reply.parameters
    }
  }

  /// 128 random bits as 32 hex digits.
  static func randomID() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in
      let hex = String(generator.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }
}
