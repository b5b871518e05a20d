import NavModel
import NavWire
import Testing

@testable import NavClient

@Suite("actions() and replies() over a fake navd")
struct StreamsTests {
  @Test("WatchActions replies become Activations; watching and dropped frames are skipped")
  func actions() async throws {
    let server = try FakeVarlinkServer { _ in
      [
        .reply(["kind": "watching", "scene": "main", "version": 9], continues: true),
        .reply(
          ["kind": "activation", "scene": "main", "item": "done", "action": "save", "tag": 3, "version": 9],
          continues: true),
        .reply(["kind": "dropped", "scene": "main", "dropped": 4, "version": 9], continues: true),
        .reply(["scene": "main", "item": "back", "action": nil, "tag": 0, "version": 9], continues: true),
      ]
    }
    defer { server.stop() }
    let client = makeClient(server)
    let activations = try await within {
      var activations: [Activation] = []
      for try await activation in client.actions(scene: "main") {
        activations.append(activation)
        if activations.count == 2 { break }
      }
      return activations
    }
    #expect(
      activations == [
        Activation(scene: "main", item: "done", action: "save", tag: 3, version: 9),
        Activation(scene: "main", item: "back", action: nil, tag: 0, version: 9),
      ])
    let call = try #require(server.calls("io.navd.WatchActions").first)
    #expect(call.more && call.parameters == ["scene": "main"])
    try await server.events.wait("the watch to close") { $0.closedConnections == [1] }
  }

  @Test("replies() yields every reply up to and including the final one, then ends")
  func rawStream() async throws {
    let server = try FakeVarlinkServer { _ in
      [.reply(["n": 1], continues: true), .reply(["n": 2], continues: true), .reply(["n": 3])]
    }
    defer { server.stop() }
    let client = makeClient(server)
    let replies = try await within {
      var replies: [JSONValue] = []
      for try await reply in client.replies(method: "org.example.Watch", parameters: ["count": 3]) {
        replies.append(reply)
      }
      return replies
    }
    #expect(replies == [["n": 1], ["n": 2], ["n": 3]])
    #expect(server.calls("org.example.Watch").first?.more == true)
  }

  @Test("replies() does not reconnect: a dropped stream throws .disconnected")
  func rawStreamDrop() async throws {
    let server = try FakeVarlinkServer { _ in [.reply(["n": 1], continues: true), .close] }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      var iterator = client.replies(method: "org.example.Watch").makeAsyncIterator()
      let first = try await iterator.next()
      #expect(first == ["n": 1])
      await #expect(throws: NavClientError.disconnected) { _ = try await iterator.next() }
    }
    #expect(server.connectionCount == 1)
  }
}
