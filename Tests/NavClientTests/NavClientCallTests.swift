import NavModel
import NavWire
import Synchronization
import Testing
import Varlink

@testable import NavClient

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Plain calls over a fake navd")
struct NavClientCallTests {
  @Test("typed calls send the right method and parameters and decode the replies")
  func typedCalls() async throws {
    let server = try FakeVarlinkServer { exchange in
      switch exchange.call.method {
      case "io.navd.GetServerInfo":
        return [
          .reply([
            "version": "0.1.0", "protocolVersion": "1.0", "pid": 42, "uptimeSeconds": 1.5, "scenes": 2,
            "connections": 3,
            "subscribers": 4, "futureField": "ignored",
          ])
        ]
      case "io.navd.ListScenes":
        return [.reply(["scenes": [["name": "main", "version": 7, "subscribers": 1]]])]
      case "io.navd.GetState":
        return [.reply(["version": 7, "state": SceneState.empty.json])]
      case "io.navd.Activate":
        return [.reply(["action": nil, "watchers": 0, "version": 12])]
      case "io.navd.GetLayout":
        return [.reply(["version": 7, "layout": ["width": exchange.parameters["width"] ?? .null]])]
      default:
        return [.reply(["echo": .object(exchange.parameters)])]
      }
    }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      let info = try await client.serverInfo()
      #expect(info.version == "0.1.0" && info.protocolVersion == "1.0" && info.pid == 42 && info.subscribers == 4)
      let scenes = try await client.scenes()
      #expect(scenes.map(\.name) == ["main"] && scenes.first?.version == 7)
      let (version, state) = try await client.state(scene: "main")
      #expect(version == 7 && state == SceneState.empty)
      let layout = try await client.layout(scene: "main", width: 320)
      #expect(layout.version == 7 && layout.layout["width"] == 320)
      let back = try await client.activate(scene: "main", item: "@back", expectTop: "inbox")
      #expect(back.action == nil && back.watchers == 0 && back.version == 12)
      let raw = try await client.call(method: "org.varlink.service.GetInfo", parameters: ["x": 1])
      #expect(raw["echo"] == ["x": 1])
      let sent = try await client.send(GetServerInfoCall())
      #expect(sent.reply == info, "send decodes the reply as the call's type")
      #expect(sent.parameters["futureField"] == "ignored", "and keeps the parameters as navd sent them")
      // The fake answers DeleteScene with {"echo": …}: no version, so not a DeleteScene reply.
      let malformed = await #expect(throws: NavClientError.self) {
        try await client.send(DeleteSceneCall(scene: "gone", ifVersion: nil))
      }
      #expect(malformed.map { "\($0)" }?.contains("DeleteScene reply") == true, "\(String(describing: malformed))")
    }
    #expect(server.calls("io.navd.GetState").first?.parameters == ["scene": "main"])
    #expect(server.calls("io.navd.GetLayout").first?.parameters == ["scene": "main", "width": 320])
    #expect(
      server.calls("io.navd.Activate").first?.parameters == [
        "scene": "main", "item": "@back", "expectTop": "inbox", "clientId": "test-client",
      ])
    #expect(server.connectionCount == 1)
  }

  @Test("pipelined calls share one connection and each caller gets its own reply, in order")
  func pipelining() async throws {
    let count = 20
    let held = Mutex<[VarlinkCall]>([])
    // Answer nothing until all calls are in flight, then answer them all at once, in order.
    let server = try FakeVarlinkServer { exchange in
      let calls = held.withLock { held -> [VarlinkCall] in
        held.append(exchange.call)
        return held.count == count ? held : []
      }
      return calls.map { .reply(["n": $0.parameters["n"] ?? .null]) }
    }
    defer { server.stop() }
    let client = makeClient(server)
    let results = try await within {
      try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
        for n in 0..<count {
          group.addTask {
            (n, try await client.call(method: "org.example.Echo", parameters: ["n": .number(Double(n))]))
          }
        }
        var results: [Int: JSONValue] = [:]
        for try await (n, reply) in group { results[n] = reply }
        return results
      }
    }
    for n in 0..<count { #expect(results[n] == ["n": .number(Double(n))]) }
    #expect(server.connectionCount == 1)
  }

  @Test("a Varlink error reply becomes .remote with its name, message and conflict flag")
  func remoteErrors() async throws {
    let server = try FakeVarlinkServer { exchange in
      switch exchange.call.method {
      case "io.navd.Activate":
        return [
          .error("io.navd.ItemNotActivatable", ["message": "bar button item \"x\" is not shown", "field": "item"])
        ]
      default:
        return [.error("io.navd.Conflict", ["message": "title changed", "currentVersion": 9])]
      }
    }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      do {
        _ = try await client.activate(scene: "main", item: "x")
        Issue.record("Activate should have failed")
      } catch let error as NavClientError {
        #expect(error.remoteName == "io.navd.ItemNotActivatable")
        #expect(error.message == "bar button item \"x\" is not shown")
        #expect(!error.isConflict)
        #expect(error.description == "io.navd.ItemNotActivatable: bar button item \"x\" is not shown")
      }
      do {
        _ = try await client.mutate(ops: [.setSceneTint(nil)])
        Issue.record("Mutate should have failed")
      } catch let error as NavClientError {
        #expect(error.isConflict && error.currentVersion == 9)
      }
    }
  }

  @Test("no socket at the path: .unreachable with ENOENT, naming the path and how to start navd")
  func unreachableMissing() async throws {
    let path = "/tmp/navclient-missing-\(NavClient.randomID())/navd.sock"
    let client = NavClient(socketPath: path)
    do {
      _ = try await client.serverInfo()
      Issue.record("should not connect")
    } catch let error as NavClientError {
      guard case .unreachable(let tried, let code, _) = error else {
        Issue.record("expected .unreachable, got \(error)")
        return
      }
      #expect(tried == path && code == ENOENT)
      #expect(error.description.contains(path))
      #expect(error.description.contains("is navd running?"))
      #expect(error.description.contains("navd --socket \(path)"))
    }
  }

  @Test("a socket file nobody listens on: .unreachable with ECONNREFUSED")
  func unreachableRefused() async throws {
    var template = Array("/tmp/navclient-test-XXXXXX".utf8CString)
    let directory = String(cString: mkdtemp(&template)!)
    let path = directory + "/navd.sock"
    let fd = try FakeVarlinkServer.listen(at: path, backlog: 0)
    defer {
      close(fd)
      unlink(path)
      rmdir(directory)
    }
    do {
      _ = try await NavClient(socketPath: path).scenes()
      Issue.record("should not connect")
    } catch let error as NavClientError {
      guard case .unreachable(_, let code, let hint) = error else {
        Issue.record("expected .unreachable, got \(error)")
        return
      }
      #expect(code == ECONNREFUSED)
      #expect(hint.contains("nothing accepts"))
    }
  }

  @Test("a call that gets no reply within the timeout throws .timedOut")
  func timeout() async throws {
    let server = try FakeVarlinkServer { _ in [] }
    defer { server.stop() }
    let client = makeClient(server, timeout: .milliseconds(100))
    try await within {
      await #expect(throws: NavClientError.timedOut) { try await client.serverInfo() }
    }
  }

  @Test("garbage from the server is a protocol violation, and the next call reconnects")
  func protocolViolation() async throws {
    let server = try FakeVarlinkServer { exchange in
      exchange.count == 1 ? [.bytes(Array("{not json".utf8) + [0])] : [.reply(["ok": true])]
    }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      do {
        _ = try await client.call(method: "org.example.A")
        Issue.record("should fail")
      } catch let error as NavClientError {
        guard case .protocolViolation = error else {
          Issue.record("expected .protocolViolation, got \(error)")
          return
        }
      }
      #expect(try await client.call(method: "org.example.A") == ["ok": true])
    }
    #expect(server.connectionCount == 2)
  }

  @Test("a reply that does not match the method's shape is a protocol violation naming the field")
  func malformedReply() async throws {
    let server = try FakeVarlinkServer { _ in [.reply(["version": "seven", "state": [:]])] }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      do {
        _ = try await client.state(scene: "main")
        Issue.record("should fail")
      } catch let error as NavClientError {
        #expect(error == .protocolViolation("GetState reply: \"version\" must be a non-negative integer, got string"))
      }
    }
  }

  @Test("cancelling one pipelined call leaves the others their own replies")
  func cancelOneCall() async throws {
    let held = Mutex<[VarlinkCall]>([])
    let server = try FakeVarlinkServer { exchange in
      let calls = held.withLock { held -> [VarlinkCall] in
        held.append(exchange.call)
        return held.count == 3 ? held : []
      }
      return calls.map { .reply(["n": $0.parameters["n"] ?? .null]) }
    }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      let first = Task { try await client.call(method: "org.example.Echo", parameters: ["n": 1]) }
      try await server.events.wait("first call") { $0.calls("org.example.Echo").count == 1 }
      first.cancel()
      await #expect(throws: CancellationError.self) { try await first.value }
      async let second = client.call(method: "org.example.Echo", parameters: ["n": 2])
      async let third = client.call(method: "org.example.Echo", parameters: ["n": 3])
      #expect(try await second == ["n": 2])
      #expect(try await third == ["n": 3])
    }
  }

  @Test("calls larger than the socket buffer are written in pieces as the peer reads them")
  func largeCalls() async throws {
    let server = try FakeVarlinkServer { exchange in
      [.reply(["size": .number(Double(exchange.parameters["blob"]?.stringValue?.utf8.count ?? -1))])]
    }
    defer { server.stop() }
    let client = makeClient(server)
    // Each well past a socket buffer (~200 KB), yet under navd's frame limit (1 MiB).
    let sizes = [1_000_000, 10, 800_000, 5]
    let replies = try await within {
      try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
        for size in sizes {
          group.addTask {
            let blob = JSONValue.string(String(repeating: "x", count: size))
            return (size, try await client.call(method: "org.example.Size", parameters: ["blob": blob]))
          }
        }
        var replies: [Int: JSONValue] = [:]
        for try await (size, reply) in group { replies[size] = reply }
        return replies
      }
    }
    for size in sizes { #expect(replies[size] == ["size": .number(Double(size))]) }
  }

  @Test("a call beyond navd's frame limit is refused before anything is sent, naming the limit (issue 29)")
  func callBeyondTheFrameLimit() async throws {
    let server = try FakeVarlinkServer { exchange in [.reply(exchange.parameters)] }
    defer { server.stop() }
    let client = makeClient(server)
    try await within {
      let blob = JSONValue.string(String(repeating: "x", count: NavClient.maxRequestBytes))
      do {
        _ = try await client.call(method: "org.example.Size", parameters: ["blob": blob])
        Issue.record("a call beyond the frame limit was sent")
      } catch let error as NavClientError {
        guard case .requestTooLarge(let bytes, let limit) = error else {
          Issue.record("expected .requestTooLarge, got \(error)")
          return
        }
        #expect(limit == 1_048_576 && bytes > limit)
        #expect(error.description.contains("frame limit of 1048576 bytes"))
      }
      #expect(try await client.call(method: "org.example.Echo", parameters: ["n": 1]) == ["n": 1])
      #expect(server.calls("org.example.Size").isEmpty)
    }
  }

  @Test("many clients at once, each with its own connection, all get their own replies")
  func manyClients() async throws {
    let server = try FakeVarlinkServer { exchange in [.reply(exchange.parameters)] }
    defer { server.stop() }
    try await within {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for c in 0..<24 {
          group.addTask {
            let client = makeClient(server)
            for n in 0..<10 {
              let parameters: [String: JSONValue] = ["c": .number(Double(c)), "n": .number(Double(n))]
              let reply = try await client.call(method: "org.example.Echo", parameters: parameters)
              #expect(reply == .object(parameters))
            }
            client.close()
          }
        }
        try await group.waitForAll()
      }
    }
    #expect(server.connectionCount == 24)
  }
}
