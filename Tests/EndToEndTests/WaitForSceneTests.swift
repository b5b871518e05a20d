import NavClient
import NavModel
import Testing

/// `NavClient.updates(waitForScene:)` against a real navd (PROTOCOL.md §9.21).
@Suite("NavClient waits for a scene", .timeLimit(.minutes(10)))
struct WaitForSceneClientTests {
  @Test("§9.21 updates(waitForScene: true) starts empty at version 0 and follows the scene once it is created")
  func followsCreation() async throws {
    try await withNavd { navd in
      let reader = makeClient(navd, clientId: "reader")
      let writer = makeClient(navd, clientId: "writer")
      let updates = StreamReader(
        reader.updates(scene: "later", view: .state, waitForScene: true), name: "updates(later, waiting)")
      let first = try await updates.next()
      #expect(first.isSnapshot && first.version == 0)
      #expect(try await reader.scenes().map(\.name) == ["main"], "waiting creates no scene")
      for ops in varietyOfMutations {
        let reply = try await writer.mutate(scene: "later", ops: ops)
        let update = try await updates.next()
        #expect(!update.isSnapshot && update.version == reply.version)
        let now = try await currentDocument(reader, view: .state, scene: "later")
        #expect(update.document == now.document)
      }
      let created = try await reader.stateWithEpoch(scene: "later")
      #expect(first.epoch != nil && first.epoch == created.epoch)
    }
  }

  @Test("§9.21 without waitForScene an unknown scene still throws SceneNotFound")
  func defaultDoesNotWait() async throws {
    try await withNavd { navd in
      let reader = makeClient(navd)
      let updates = StreamReader(reader.updates(scene: "later", view: .state), name: "updates(later)")
      await #expect(throws: NavClientError.self) { _ = try await updates.next() }
    }
  }
}
