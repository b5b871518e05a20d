import NavModel
import Testing

/// PROTOCOL.md §2 "Pipelining": Mutates that arrive together are stored as one group even
/// when the store never suspends (so no commit is in progress for them to queue behind).
@Suite("PROTOCOL §2 pipelined Mutates form one group with a store that commits inline")
struct InlineStoreGroupTests {
  @Test("PROTOCOL §2 64 Mutates sent at once are stored in a few groups, not one commit each")
  func burstFormsGroups() async throws {
    let store = GroupRecordingStore()
    try await withNavdOnSocket(store: store) { path in try Self.exchange(path: path) }
    let groups = store.groups.withLock { $0 }
    print("1 + 64 pipelined Mutates were stored in \(groups.count) groups: \(groups)")
    #expect(groups.reduce(0, +) == 65)
    #expect(groups.count <= 5, "a burst read in one pass is stored together, not one commit per Mutate")
  }

  private static func exchange(path: String) throws {
    let client = try SocketClient(path: path)
    try client.send(mutateFrame(["op": "push", "item": ["id": "root", "title": "start"]]))
    #expect(try client.readReply().error == nil)
    var burst: [UInt8] = []
    for i in 1...64 {
      burst += mutateFrame(["op": "updateNavigationItem", "item": "root", "set": ["title": .string("t\(i)")]])
    }
    try client.send(burst)
    let versions = try (1...64).map { _ in try client.readReply().parameters["version"]?.numberValue ?? -1 }
    #expect(versions == (2...65).map(Double.init), "applied and answered in the order sent")
  }
}
