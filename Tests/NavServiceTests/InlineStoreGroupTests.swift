import Foundation
import NavEngine
import NavModel
import NavServer
import NavService
import NavWire
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A store that commits without ever suspending, as navd's SQLite store does with
/// `--durability normal` (`InlineCommits`), and records the size of every group.
final class InlineRecordingStore: SceneStore {
  let groups = Mutex<[Int]>([])

  func load() throws(StoreError) -> [StoredScene] { [] }

  nonisolated(nonsending) func commit(_ records: [CommitRecord]) async throws(StoreError) {
    groups.withLock { $0.append(records.count) }
  }
}

/// PROTOCOL.md §2 "Pipelining": Mutates that arrive together are stored as one group even
/// when the store never suspends (so no commit is in progress for them to queue behind).
@Suite("PROTOCOL §2 pipelined Mutates form one group with a store that commits inline")
struct InlineStoreGroupTests {
  @Test("PROTOCOL §2 64 Mutates sent at once are stored in a few groups, not one commit each")
  func burstFormsGroups() async throws {
    let store = InlineRecordingStore()
    let executor = EventLoopExecutor()
    let service = NavdService(engine: Engine(store: store), executor: executor)
    var template = Array("/tmp/navd-inline-XXXXXX".utf8CString)
    let directory = String(cString: try #require(mkdtemp(&template)))
    defer { rmdir(directory) }
    var configuration = ServerConfiguration(socketPath: directory + "/navd.sock")
    configuration.serveNavd()
    let server = VarlinkServer(
      configuration: configuration, interfaces: [InterfaceDescription(idl: navdInterfaceDefinition)!],
      handler: service, log: Log(minimumLevel: .error), executor: executor)
    try server.start()
    defer {
      server.stop()
      server.waitUntilStopped()
    }
    let path = directory + "/navd.sock"
    // The client blocks on its socket, so it runs on a thread of its own, not the cooperative pool.
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
      Thread { done.resume(with: Result { try Self.exchange(path: path) }) }.start()
    }
    let groups = store.groups.withLock { $0 }
    print("1 + 64 pipelined Mutates were stored in \(groups.count) groups: \(groups)")
    #expect(groups.reduce(0, +) == 65)
    #expect(groups.count <= 5, "a burst read in one pass is stored together, not one commit per Mutate")
  }

  private static func exchange(path: String) throws {
    let client = try SocketClient(path: path)
    try client.send(mutate(["op": "push", "item": ["id": "root", "title": "start"]]))
    #expect(try client.readReply().error == nil)
    var burst: [UInt8] = []
    for i in 1...64 {
      burst += mutate(["op": "updateNavigationItem", "item": "root", "set": ["title": .string("t\(i)")]])
    }
    try client.send(burst)
    let versions = try (1...64).map { _ in try client.readReply().parameters["version"]?.numberValue ?? -1 }
    #expect(versions == (2...65).map(Double.init), "applied and answered in the order sent")
  }

  private static func mutate(_ op: JSONValue) -> [UInt8] {
    VarlinkCall(method: "io.navd.Mutate", parameters: ["scene": "main", "ops": [op]]).encoded()
  }
}
