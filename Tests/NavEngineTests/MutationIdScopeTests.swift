import NavModel
import Testing

@testable import NavEngine

/// CONFLICTS.md I5: remembered mutation ids are scoped by the caller's uid as well as by its
/// client id, in memory and across a restart.
@Suite("I5 remembered mutation ids are per uid")
struct MutationIdScopeTests {
  /// Mutation id "m1" of client "shared", adding a button of its own per uid (the same ops
  /// from another uid would be refused as a duplicate item, not answered from memory).
  static func request(uid: UInt32) -> MutationRequest {
    MutationRequest(ops: [Sample.button("b\(uid)")], mutationId: "m1", client: "shared", uid: uid)
  }

  @Test("another uid with the same client id and mutation id gets no remembered reply: its mutation applies")
  func anotherUidApplies() async throws {
    let store = InMemorySceneStore()
    let engine = Engine(store: store)
    let root = try await engine.mutate(scene: "s", Self.request(uid: 0)).get()
    #expect(root.version == 1)
    let retry = try await engine.mutate(scene: "s", Self.request(uid: 0)).get()
    #expect(retry.replayed && retry.version == 1, "the same uid's retry is answered from memory")
    let other = try await engine.mutate(scene: "s", Self.request(uid: 1000)).get()
    #expect(!other.replayed)
    #expect(other.version == 2)
    // Other ops under the same id are that uid's business only: no "already used" error.
    let third = try await engine.mutate(
      scene: "s", Self.request(uid: 1001)
    ).get()
    #expect(third.version == 3)

    let restarted = try Engine(store: store, restoring: store.load())
    let afterRoot = try await restarted.mutate(scene: "s", Self.request(uid: 0)).get()
    #expect(afterRoot.replayed && afterRoot.version == 1)
    let afterOther = try await restarted.mutate(scene: "s", Self.request(uid: 1000)).get()
    #expect(afterOther.replayed && afterOther.version == 2)
    let stranger = try await restarted.mutate(scene: "s", Self.request(uid: 1002)).get()
    #expect(!stranger.replayed && stranger.version == 4)
  }
}
