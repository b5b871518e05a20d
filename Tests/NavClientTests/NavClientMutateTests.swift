import NavModel
import NavWire
import Synchronization
import Testing

@testable import NavClient

@Suite("Mutations: idempotent retry and the mutator")
struct NavClientMutateTests {
  @Test("a connection dropped before the Mutate reply is retried once with the same clientId and mutationId")
  func retryAfterDrop() async throws {
    let server = try FakeVarlinkServer { exchange in
      // The first Mutate "dies" with its connection; the retry is answered from navd's memory.
      exchange.count == 1 ? [.close] : [.reply(mutateReply(version: 4, replayed: true))]
    }
    defer { server.stop() }
    let client = makeClient(server, clientId: "writer-1")
    let reply = try await within {
      try await client.mutate(scene: "main", ops: [.setSceneTint(nil)], baseVersion: 3)
    }
    #expect(reply == MutationReply(version: 4, overwritten: [], baseVersionExpired: false, replayed: true))
    let calls = server.calls("io.navd.Mutate")
    #expect(calls.count == 2)
    #expect(server.connectionCount == 2)
    let ids = calls.map { $0.parameters["mutationId"] }
    #expect(ids[0] != nil && ids[0] == ids[1])
    #expect(calls.allSatisfy { $0.parameters["clientId"] == "writer-1" })
    #expect(calls[0].parameters == calls[1].parameters)
    #expect(calls[0].parameters["baseVersion"] == 3 && calls[0].parameters["policy"] == "lastWriterWins")
    #expect(calls[0].parameters["ops"] == .array([Op.setSceneTint(nil).json]))
  }

  @Test("a second drop is not retried again: .disconnected")
  func retriesOnlyOnce() async throws {
    let server = try FakeVarlinkServer { _ in [.close] }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      await #expect(throws: NavClientError.disconnected) {
        try await client.mutate(ops: [.setSceneTint(nil)], mutationId: "m-1")
      }
    }
    #expect(server.calls("io.navd.Mutate").map { $0.parameters["mutationId"] } == ["m-1", "m-1"])
  }

  @Test("Activate is not retried after a drop: the action may already have been delivered")
  func activateNotRetried() async throws {
    let server = try FakeVarlinkServer { _ in [.close] }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      await #expect(throws: NavClientError.disconnected) { try await client.activate(item: "done") }
    }
    #expect(server.calls("io.navd.Activate").count == 1)
  }

  @Test("each mutation without an id gets a fresh one")
  func freshMutationIds() async throws {
    let server = try FakeVarlinkServer { exchange in [.reply(mutateReply(version: exchange.count))] }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      _ = try await client.mutate(ops: [.setSceneTint(nil)])
      _ = try await client.mutate(ops: [.setSceneTint(nil)])
    }
    let ids = server.calls("io.navd.Mutate").compactMap { $0.parameters["mutationId"]?.stringValue }
    #expect(ids.count == 2 && ids[0] != ids[1])
  }

  @Test("the mutator re-runs its body on fresh state after a Conflict (CONFLICTS.md §8)")
  func mutatorRerunsAfterConflict() async throws {
    let server = try FakeVarlinkServer { exchange in
      switch exchange.call.method {
      case "io.navd.GetState":
        // Someone else commits between our reads: the version moves on each time.
        var state = SceneState.empty
        state.navigationBar.hidden = exchange.count > 1
        return [.reply(["version": .number(Double(10 * exchange.count)), "state": state.json])]
      default:
        return exchange.count == 1
          ? [.error("io.navd.Conflict", ["message": "hidden was changed", "currentVersion": 20])]
          : [.reply(mutateReply(version: 21))]
      }
    }
    defer { server.stop() }
    let client = makeClient(server)
    let seen = Mutex<[Bool]>([])
    let reply = try await within {
      try await client.mutate(scene: "main") { (state: SceneState) -> [Op] in
        seen.withLock { $0.append(state.navigationBar.hidden) }
        return [.setBarHidden(.navigationBar, hidden: !state.navigationBar.hidden, animated: false)]
      }
    }
    #expect(reply.version == 21)
    #expect(seen.withLock { $0 } == [false, true])
    let mutates = server.calls("io.navd.Mutate")
    #expect(mutates.map { $0.parameters["baseVersion"] } == [10, 20])
    #expect(mutates.allSatisfy { $0.parameters["policy"] == "failOnConflict" })
    #expect(mutates[0].parameters["mutationId"] != mutates[1].parameters["mutationId"])
    #expect(
      mutates[1].parameters["ops"] == .array([Op.setBarHidden(.navigationBar, hidden: false, animated: false).json]))
  }

  @Test("the mutator gives up after maxAttempts and throws the last Conflict")
  func mutatorGivesUp() async throws {
    let server = try FakeVarlinkServer { exchange in
      exchange.call.method == "io.navd.GetState"
        ? [.reply(["version": .number(Double(exchange.count)), "state": SceneState.empty.json])]
        : [.error("io.navd.Conflict", ["message": .string("attempt \(exchange.count)")])]
    }
    defer { server.stop() }
    let client = makeClient(server)
    let runs = Atomic<Int>(0)
    try await within {
      do {
        _ = try await client.mutate(scene: "main", maxAttempts: 3) { (_: SceneState) -> [Op] in
          runs.add(1, ordering: .relaxed)
          return [.setSceneTint(nil)]
        }
        Issue.record("should give up")
      } catch let error as NavClientError {
        #expect(error.isConflict && error.message == "attempt 3")
      }
    }
    #expect(runs.load(ordering: .relaxed) == 3)
    #expect(server.calls("io.navd.Mutate").count == 3)
    #expect(server.calls("io.navd.GetState").count == 3)
  }

  @Test("the mutator does not retry other errors, and sees a missing scene as empty at version 0")
  func mutatorOtherErrors() async throws {
    let server = try FakeVarlinkServer { exchange in
      exchange.call.method == "io.navd.GetState"
        ? [.error("io.navd.SceneNotFound", ["message": "no scene \"new\""])]
        : [.error("io.navd.InvalidMutation", ["message": "bad op", "opIndex": 0])]
    }
    defer { server.stop() }
    let client = makeClient(server)
    let states = Mutex<[SceneState]>([])
    try await within {
      do {
        _ = try await client.mutate(scene: "new") { (state: SceneState) -> [Op] in
          states.withLock { $0.append(state) }
          return [.setSceneTint(nil)]
        }
        Issue.record("should fail")
      } catch let error as NavClientError {
        #expect(error.remoteName == "io.navd.InvalidMutation")
      }
    }
    #expect(states.withLock { $0 } == [SceneState.empty])
    #expect(server.calls("io.navd.Mutate").map { $0.parameters["baseVersion"] } == [0])
  }
}
