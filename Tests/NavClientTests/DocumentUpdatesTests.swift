import NavModel
import NavWire
import Synchronization
import Testing

@testable import NavClient

#if canImport(Glibc)
  import Glibc
#endif

@Suite("updates(): the subscribed document over a fake navd")
struct DocumentUpdatesTests {
  @Test("a snapshot, then every patch applied to the kept document, with events and flags passed on")
  func appliesPatches() async throws {
    let server = try FakeVarlinkServer { _ in
      [
        .reply(snapshot(1, ["title": "A", "items": []]), continues: true),
        .reply(
          update(1, 2, setTitle("B"), events: [["kind": "pushed", "item": "b"]], animated: true), continues: true),
        .reply(update(2, 3, [["op": "add", "path": "/items/-", "value": "x"]]), continues: true),
      ]
    }
    defer { server.stop() }
    let client = makeClient(server)
    let updates = try await within {
      var iterator = client.updates(scene: "main", view: .state).makeAsyncIterator()
      var updates: [DocumentUpdate] = []
      for _ in 0..<3 { updates.append(try #require(try await iterator.next())) }
      return updates
    }
    #expect(updates.map(\.version) == [1, 2, 3])
    #expect(updates.map(\.isSnapshot) == [true, false, false])
    #expect(updates[0].document == ["title": "A", "items": []])
    #expect(updates[1].document == ["title": "B", "items": []])
    #expect(updates[1].events == [["kind": "pushed", "item": "b"]] && updates[1].animated)
    #expect(updates[1].patch == (try JSONPatch.decode(setTitle("B"))))
    #expect(updates[2].document == ["title": "B", "items": ["x"]] && !updates[2].animated)
    #expect(server.calls("io.navd.Subscribe").first?.parameters == ["scene": "main", "view": "state"])
    #expect(server.calls("io.navd.Subscribe").first?.more == true)
  }

  @Test("a version gap makes the client resubscribe without sinceVersion and yield the fresh snapshot")
  func resyncOnGap() async throws {
    let server = try FakeVarlinkServer { exchange in
      exchange.count == 1
        ? [
          .reply(snapshot(1, ["title": "A"]), continues: true),
          .reply(update(1, 2, setTitle("B")), continues: true),
          .reply(update(4, 5, setTitle("E")), continues: true),
        ]
        : [.reply(snapshot(5, ["title": "E5"]), continues: true)]
    }
    defer { server.stop() }
    let client = makeClient(server)
    let updates = try await within {
      var iterator = client.updates(scene: "main", width: 320).makeAsyncIterator()
      var updates: [DocumentUpdate] = []
      for _ in 0..<3 { updates.append(try #require(try await iterator.next())) }
      return updates
    }
    #expect(updates.map(\.version) == [1, 2, 5])
    #expect(updates.map(\.isSnapshot) == [true, false, true])
    #expect(updates[2].document == ["title": "E5"])
    let subscribes = server.calls("io.navd.Subscribe")
    #expect(subscribes.count == 2)
    #expect(subscribes[1].parameters == ["scene": "main", "view": "layout", "width": 320])
    try await server.events.wait("the gapped connection closed") { $0.closedConnections.contains(1) }
  }

  @Test("a patch that does not apply to the kept document also triggers a resync")
  func resyncOnBadPatch() async throws {
    let server = try FakeVarlinkServer { exchange in
      exchange.count == 1
        ? [
          .reply(snapshot(1, ["title": "A"]), continues: true),
          .reply(update(1, 2, [["op": "remove", "path": "/missing"]]), continues: true),
        ]
        : [.reply(snapshot(2, ["title": "B"]), continues: true)]
    }
    defer { server.stop() }
    let client = makeClient(server)
    let second = try await within {
      var iterator = client.updates().makeAsyncIterator()
      _ = try await iterator.next()
      return try #require(try await iterator.next())
    }
    #expect(second.version == 2 && second.isSnapshot && second.document == ["title": "B"])
    #expect(server.calls("io.navd.Subscribe")[1].parameters["sinceVersion"] == nil)
  }

  @Test("after the server closes the stream, the client reconnects and resumes with sinceVersion")
  func reconnectAndResume() async throws {
    let server = try FakeVarlinkServer { exchange in
      exchange.count == 1
        ? [
          .reply(snapshot(3, ["title": "C"]), continues: true),
          .reply(update(3, 4, setTitle("D")), continues: true),
          .close,
        ]
        : [.reply(update(4, 5, setTitle("E")), continues: true)]
    }
    defer { server.stop() }
    let client = makeClient(server)
    let updates = try await within {
      var iterator = client.updates(scene: "main").makeAsyncIterator()
      var updates: [DocumentUpdate] = []
      for _ in 0..<3 { updates.append(try #require(try await iterator.next())) }
      return updates
    }
    #expect(updates.map(\.version) == [3, 4, 5])
    #expect(updates.map(\.isSnapshot) == [true, false, false])
    #expect(updates[2].document == ["title": "E"])
    #expect(server.calls("io.navd.Subscribe")[1].parameters["sinceVersion"] == 4)
    #expect(server.connectionCount == 2)
  }

  @Test("reportingConnection: connected, reconnecting when the stream drops, connected again on resuming")
  func reportsConnectionChanges() async throws {
    let server = try FakeVarlinkServer { exchange in
      exchange.count == 1
        ? [.reply(snapshot(3, ["title": "C"]), continues: true), .close]
        : [.reply(update(3, 4, setTitle("D")), continues: true)]
    }
    defer { server.stop() }
    let states = Mutex<[StreamConnectionState]>([])
    let updates = makeClient(server).updates(scene: "main").reportingConnection { state in
      states.withLock { $0.append(state) }
    }
    let (versions, whileFirst) = try await within { () async throws -> ([UInt64?], [StreamConnectionState]) in
      var iterator = updates.makeAsyncIterator()
      let first = try await iterator.next()?.version
      let seen = states.withLock { $0 }
      return ([first, try await iterator.next()?.version], seen)
    }
    #expect(versions == [3, 4])
    #expect(whileFirst == [.connected])
    let all = states.withLock { $0 }
    #expect(all == [.connected, .reconnecting, .connected])
  }

  @Test("navd restarting: the client retries with backoff while nothing listens, then resumes")
  func reconnectAfterRestart() async throws {
    let directory = try FakeVarlinkServer.makeTemporaryDirectory()
    defer { rmdir(directory) }
    let first = try FakeVarlinkServer(directory: directory) { _ in
      [.reply(snapshot(1, ["title": "A"]), continues: true), .reply(update(1, 2, setTitle("B")), continues: true)]
    }
    let client = NavClient(socketPath: first.path)
    try await within {
      var iterator = client.updates().makeAsyncIterator()
      #expect(try await iterator.next()?.version == 1)
      #expect(try await iterator.next()?.version == 2)
      first.stop()
      let restarted = Task {
        // navd comes back a little later, on the same path.
        try await Task.sleep(for: .milliseconds(120))
        return try FakeVarlinkServer(directory: directory) { exchange in
          exchange.parameters["sinceVersion"] == 2 ? [.reply(update(2, 3, setTitle("C")), continues: true)] : [.close]
        }
      }
      let next = try #require(try await iterator.next())
      #expect(next.version == 3 && next.document == ["title": "C"])
      try await restarted.value.stop()
    }
  }

  @Test("updates(since:) resumes from a checkpoint the caller kept")
  func resumeFromCheckpoint() async throws {
    let server = try FakeVarlinkServer { _ in [.reply(update(7, 8, setTitle("H")), continues: true)] }
    defer { server.stop() }
    let client = makeClient(server)
    let next = try await within {
      var iterator = client.updates(since: DocumentCheckpoint(version: 7, document: ["title": "G"])).makeAsyncIterator()
      return try #require(try await iterator.next())
    }
    #expect(next.version == 8 && next.document == ["title": "H"] && !next.isSnapshot)
    #expect(server.calls("io.navd.Subscribe").first?.parameters["sinceVersion"] == 7)
  }

  @Test("an events reply is yielded with the current version and document and no patch")
  func eventsReply() async throws {
    let server = try FakeVarlinkServer { _ in
      [
        .reply(snapshot(4, ["title": "D"]), continues: true),
        .reply(["kind": "events", "version": 4, "events": [["kind": "activated", "item": "done"]]], continues: true),
      ]
    }
    defer { server.stop() }
    let client = makeClient(server)
    let event = try await within {
      var iterator = client.updates().makeAsyncIterator()
      _ = try await iterator.next()
      return try #require(try await iterator.next())
    }
    #expect(
      event == DocumentUpdate(version: 4, document: ["title": "D"], events: [["kind": "activated", "item": "done"]]))
  }

  @Test("a burst larger than the read-ahead buffer arrives complete and in order")
  func burst() async throws {
    let count = 1000
    let server = try FakeVarlinkServer { _ in
      [.reply(snapshot(0, ["n": 0]), continues: true)]
        + (1...count).map { n in
          .reply(update(n - 1, n, [["op": "replace", "path": "/n", "value": .number(Double(n))]]), continues: true)
        }
    }
    defer { server.stop() }
    let client = makeClient(server)
    let last = try await within {
      var last: DocumentUpdate?
      for try await update in client.updates() {
        last = update
        if update.version == UInt64(count) { break }
      }
      return last
    }
    #expect(last?.document == ["n": .number(Double(count))])
    #expect(server.calls("io.navd.Subscribe").count == 1)
  }

  @Test("cancelling the consuming task closes the subscription's connection")
  func cancellationCloses() async throws {
    let server = try FakeVarlinkServer { _ in [.reply(snapshot(1, ["title": "A"]), continues: true)] }
    defer { server.stop() }
    let client = makeClient(server)
    let received = EventLog<UInt64>()
    let consumer = Task {
      for try await update in client.updates() { received.append(update.version) }
      return "ended"
    }
    try await received.wait("the snapshot") { !$0.isEmpty }
    consumer.cancel()
    try await server.events.wait("the client to close its connection") { $0.closedConnections == [1] }
    #expect(try await within { try await consumer.value } == "ended")
  }

  @Test("leaving the loop closes the subscription's connection")
  func breakCloses() async throws {
    let server = try FakeVarlinkServer { _ in [.reply(snapshot(1, ["title": "A"]), continues: true)] }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      for try await _ in client.updates() { break }
    }
    try await server.events.wait("the client to close its connection") { $0.closedConnections == [1] }
  }

  @Test("a Subscribe error reply ends the sequence with .remote")
  func remoteError() async throws {
    let server = try FakeVarlinkServer { _ in [.error("io.navd.SceneNotFound", ["message": "no scene \"x\""])] }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      var iterator = client.updates(scene: "x").makeAsyncIterator()
      await #expect(
        throws: NavClientError.remote(name: "io.navd.SceneNotFound", parameters: ["message": "no scene \"x\""])
      ) {
        _ = try await iterator.next()
      }
      let after = try await iterator.next()
      #expect(after == nil)
    }
  }

  @Test("navd not running at all: the first next() throws .unreachable instead of retrying forever")
  func unreachableFirst() async throws {
    let client = NavClient(socketPath: "/tmp/navclient-missing-\(NavClient.randomID()).sock")
    try await within {
      var iterator = client.updates().makeAsyncIterator()
      do {
        _ = try await iterator.next()
        Issue.record("should throw")
      } catch let error as NavClientError {
        guard case .unreachable(_, let code, _) = error else {
          Issue.record("got \(error)")
          return
        }
        #expect(code == ENOENT)
      }
    }
  }
}
