import Dispatch
import NavSystem
import Synchronization
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

/// The Varlink server: a listening Unix socket and an event-loop thread of its own.
///
/// ```swift
/// let server = VarlinkServer(configuration: .init(socketPath: path),
///                            interfaces: [InterfaceDescription(idl: idlText)!],
///                            handler: engine, log: log)
/// try server.start()          // binds, starts the loop thread, returns once listening
/// …
/// server.stop()               // from any thread: stop accepting, close every connection
/// server.waitUntilStopped()   // blocks until the loop has exited and the socket is gone
/// ```
///
/// The loop thread runs `epoll_wait`; it never runs on (or blocks) Swift's cooperative
/// pool. Calls to `org.varlink.service` are answered by the server itself; calls to an
/// interface in `interfaces` go to `handler`; anything else gets `InterfaceNotFound`.
public final class VarlinkServer: Sendable {
  /// The configuration the server was created with.
  public let configuration: ServerConfiguration
  private let interfaces: [InterfaceDescription]
  private let handler: any CallHandler
  private let log: Log
  private let phase = Mutex(Phase.created)
  /// Runs tasks on the event-loop thread; see `EventLoopExecutor`.
  public let executor: EventLoopExecutor
  private let stopped = DispatchGroup()

  private enum Phase {
    case created
    case running(ServerLoop)
    case finished
  }

  /// Errors from `start()`.
  public enum StartError: Error, Sendable, CustomStringConvertible {
    /// `start()` was called twice.
    case alreadyStarted
    /// The socket could not be bound.
    case socket(SocketPath.PreparationError)
    /// epoll, eventfd or the thread could not be set up.
    case system(SystemCallError)

    /// What failed, for people.
    public var description: String {
      switch self {
      case .alreadyStarted: "server already started"
      case .socket(let error): error.description
      case .system(let error): error.description
      }
    }
  }

  /// Creates a server; nothing is bound until `start()`.
  ///
  /// `interfaces` are the interfaces `handler` implements (with their IDL text for
  /// `GetInterfaceDescription`); `org.varlink.service` is always added. `executor`
  /// becomes the loop's: build it first and give it to the handler too, so the handler's
  /// tasks run on the loop from the start.
  public init(
    configuration: ServerConfiguration, interfaces: [InterfaceDescription], handler: any CallHandler, log: Log,
    executor: EventLoopExecutor = EventLoopExecutor()
  ) {
    self.executor = executor
    self.configuration = configuration
    self.interfaces = interfaces
    self.handler = handler
    self.log = log
  }

  /// Binds the socket (for `.path`, which must already be prepared — see
  /// `SocketPath.prepare`) and starts the event-loop thread.
  public func start() throws(StartError) {
    try phase.withLock { phase throws(StartError) in
      guard case .created = phase else { throw .alreadyStarted }
      let loop: ServerLoop
      do {
        loop = try ServerLoop(
          configuration: configuration, interfaces: interfaces, handler: handler, log: log, executor: executor)
      } catch let error as SocketPath.PreparationError {
        throw .socket(error)
      } catch let error as SystemCallError {
        throw .system(error)
      } catch {
        throw .system(SystemCallError("start", errno: EINVAL))
      }
      stopped.enter()
      let group = stopped
      _ = OwnThread(name: "navd-io", stackSize: 1 << 20) {
        loop.run()
        group.leave()
      }
      phase = .running(loop)
    }
  }

  /// Asks the server to stop: it stops accepting, closes every connection (cancelling
  /// streams), removes the socket file it created and ends the loop thread. Returns at
  /// once; callable from any thread, any number of times.
  public func stop() {
    let loop: ServerLoop? = phase.withLock { phase in
      if case .running(let loop) = phase { return loop }
      return nil
    }
    loop?.inbox.post(.stop)
  }

  /// Stops gracefully: stop accepting (the listening socket is closed), read no further
  /// calls, let every call in progress finish and write its reply, give every stream what
  /// its source holds and then `finalReply` (a complete error frame), and end the loop
  /// once every connection is closed or after `timeout` (the rest are then closed as by
  /// `stop()`). Returns at once; pair it with `waitUntilStopped()`.
  public func stopGracefully(finalReply: [UInt8], timeout: Duration) {
    let loop: ServerLoop? = phase.withLock { phase in
      if case .running(let loop) = phase { return loop }
      return nil
    }
    loop?.inbox.post(.drain(finalReply: finalReply, timeout: timeout))
  }

  /// Stops for a restart that keeps clients: stop accepting (the listening socket stays
  /// open, so clients queue in its backlog), read no further calls, let calls in progress
  /// finish and output drain (at most `timeout`), then hand over the listener and every
  /// connection that is between calls or in a stream whose source can resume
  /// (`ReplySource.handOverParameters`). The others get `finalReply` and are closed.
  /// After `waitUntilStopped()`, the receipt holds the descriptors, still open.
  public func stopForHandOver(finalReply: [UInt8], timeout: Duration) -> HandOverReceipt {
    let receipt = HandOverReceipt()
    let loop: ServerLoop? = phase.withLock { phase in
      if case .running(let loop) = phase { return loop }
      return nil
    }
    loop?.inbox.post(.handOver(finalReply: finalReply, timeout: timeout, receipt: receipt))
    return receipt
  }

  /// Blocks the calling thread until the loop thread has exited (returns at once if the
  /// server never started). Do not call from the cooperative pool.
  public func waitUntilStopped() {
    stopped.wait()
    phase.withLock { phase in
      if case .running = phase { phase = .finished }
    }
  }

  /// Live counters (open connections, rejected ones, totals).
  public var statistics: ServerStatistics {
    phase.withLock { phase in
      if case .running(let loop) = phase { return loop.counters.snapshot }
      return ServerStatistics(openConnections: 0, rejectingConnections: 0, acceptedTotal: 0, rejectedTotal: 0)
    }
  }
}
