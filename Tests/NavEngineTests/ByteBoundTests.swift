import NavModel
import Testing

@testable import NavEngine

/// Every log and cache a client can fill is bounded in bytes (PROTOCOL.md
/// "Limits": `opLogBytes`, `rememberedMutationIdBytes`); these try to exceed them.
@Suite("Byte bounds of the op log and the mutation-id memory")
struct ByteBoundTests {
  /// Three bar button items with 250-byte titles: about 1 KB of ops.
  static func bulky(_ i: Int) -> [Op] {
    (0..<3).map { Sample.button("b\(i)-\($0)", title: String(repeating: "t", count: 250)) }
  }

  @Test("Limits: opLogBytes bounds the op log; older bases become expired")
  func opLogBytes() async throws {
    let scene = makeScene { $0.opLogBytes = 4096 }
    for i in 1...50 {
      try await scene.commit(Sample.request(Self.bulky(i)))
      let log = await scene.log
      #expect(log.bytes <= 4096 && log.count >= 1, "after version \(i): \(log.bytes) bytes in \(log.count)")
    }
    let log = await scene.log
    #expect(log.count < 10 && log.newestVersion == 50)
    let outcome = try await scene.commit(Sample.request([Sample.button("z")], base: 2, client: "other"))
    #expect(outcome.baseVersionExpired)
  }

  @Test("Limits: a single mutation larger than opLogBytes is still held as the newest version")
  func oversizedMutation() async throws {
    let scene = makeScene { $0.opLogBytes = 512 }
    try await scene.commit(Sample.request([.push(Sample.item("root"), animated: false)]))
    try await scene.commit(Sample.request(Self.bulky(1)))
    let log = await scene.log
    #expect(log.count == 1 && log.last?.version == 2 && log.bytes > 512)
    let subscriber = TestSubscriber(id: 1)
    try await scene.subscribe(subscriber.subscriber, view: .state, sinceVersion: 1)
    #expect(try subscriber.pull().map { $0["kind"] } == ["update"], "version 1 is still the floor")
  }

  @Test("Limits: rememberedMutationIdBytes bounds the ids, oldest first, and the store forgets the same")
  func mutationIdBytes() async throws {
    let store = InMemorySceneStore()
    let scene = makeScene(store: store) { $0.rememberedMutationIdBytes = 6000 }
    let longId = { (i: Int) in "id-\(i)-" + String(repeating: "m", count: 100) }
    for i in 1...60 {
      try await scene.commit(Sample.request([Sample.button("b\(i)")], mutationId: longId(i)))
      let memory = await scene.memory
      #expect(memory.bytes <= 6000, "after \(i): \(memory.bytes) bytes")
      let stored = try store.load()[0].mutationIds
      #expect(stored.count == memory.count, "after \(i): the store keeps what the engine remembers")
      #expect(stored.allSatisfy { memory.lookup(.init(client: $0.client, mutationId: $0.mutationId)) != nil })
    }
    let memory = await scene.memory
    #expect(memory.count > 5 && memory.count < 20)
    #expect(memory.forgottenThrough == UInt64(60 - memory.count))
    #expect(try await scene.commit(Sample.request([Sample.button("b60")], mutationId: longId(60))).replayed)
    #expect(!(try await scene.commit(Sample.request([Sample.button("again")], mutationId: longId(1))).replayed))
  }

  @Test("Limits: overwritten values count toward rememberedMutationIdBytes")
  func overwrittenValuesCount() {
    let key = MutationMemory.Key(client: "c", mutationId: "m")
    let plain = MutationOutcome(version: 1, overwritten: [], baseVersionExpired: false, replayed: false)
    var heavy = plain
    heavy.overwritten = [
      Overwrite(
        field: FieldKey(.navigationItem("inbox"), "title"),
        previousValue: .string(String(repeating: "x", count: 1000)), writtenAt: 1, writtenBy: "w")
    ]
    #expect(MutationMemory.footprint(key, heavy) > MutationMemory.footprint(key, plain) + 1000)
  }

  @Test("Planning the group's evictions gives what remembering gives")
  func plannedEvictionsMatch() {
    var memory = MutationMemory(capacity: 4, byteLimit: 500)
    let entries = (1...20).map { i in
      MutationMemory.Entry(
        opsDigest: 0,
        outcome: MutationOutcome(version: UInt64(i), overwritten: [], baseVersionExpired: false, replayed: false),
        bytes: i % 5 == 0 ? 450 : 90)
    }
    for chunk in stride(from: 0, to: 20, by: 7) {
      let group = Array(entries[chunk..<min(chunk + 7, 20)])
      let planned = memory.forgottenThrough(afterAdding: group)
      for (offset, entry) in group.enumerated() {
        memory.remember(.init(client: "c", mutationId: "\(chunk + offset)"), entry)
        #expect(memory.forgottenThrough == planned[offset], "entry \(chunk + offset)")
        #expect(memory.count <= 4 && (memory.bytes <= 500 || memory.count == 1))
      }
    }
  }
}
