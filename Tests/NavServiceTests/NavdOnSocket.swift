import Dispatch
import Foundation
import NavEngine
import NavModel
import NavServer
import NavService
import NavWire
import Synchronization
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

/// A store that records the size of every group it is given. With a `delay` it finishes
/// each commit on another thread that much later, as the SQLite store does on its own
/// thread at `--durability full`; without, it commits without suspending, as at `normal`.
final class GroupRecordingStore: SceneStore {
  let groups = Mutex<[Int]>([])
  private let delay: DispatchTimeInterval?

  init(delay: DispatchTimeInterval? = nil) { self.delay = delay }

  func load() throws(StoreError) -> [StoredScene] { [] }

  func commit(_ records: [CommitRecord], waiter: any StoreWaiter) -> Result<Void, StoreError>? {
    groups.withLock { $0.append(records.count) }
    guard let delay else { return .success(()) }
    DispatchQueue.global().asyncAfter(deadline: .now() + delay) { waiter.stored(.success(())) }
    return nil
  }
}

/// io.navd over `store`, wired as navd wires it (calls run on the server's event-loop
/// executor), served on a Unix socket in a new temporary directory. `client` gets the
/// socket's path and runs on a thread of its own: a client that blocks on its socket
/// must never hold the cooperative pool, whose threads the engine's tasks may need.
func withNavdOnSocket(store: any SceneStore, client: @escaping @Sendable (String) throws -> Void) async throws {
  let executor = EventLoopExecutor()
  let service = NavdService(engine: Engine(store: store, executor: executor), executor: executor)
  var template = Array("/tmp/navd-socket-XXXXXX".utf8CString)
  guard let made = mkdtemp(&template) else { throw SocketClient.Failure(description: "mkdtemp failed") }
  let directory = String(cString: made)
  defer { rmdir(directory) }
  let path = directory + "/navd.sock"
  var configuration = ServerConfiguration(socketPath: path)
  configuration.serveNavd()
  let server = VarlinkServer(
    configuration: configuration, interfaces: [InterfaceDescription(idl: navdInterfaceDefinition)!],
    handler: service, log: Log(minimumLevel: .error), executor: executor)
  try server.start()
  defer {
    server.stop()
    server.waitUntilStopped()
  }
  try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
    Thread { done.resume(with: Result { try client(path) }) }.start()
  }
}

/// A Mutate of `main` with one op, framed.
func mutateFrame(_ op: JSONValue) -> [UInt8] {
  VarlinkCall(method: "io.navd.Mutate", parameters: ["scene": "main", "ops": [op]]).encoded()
}
