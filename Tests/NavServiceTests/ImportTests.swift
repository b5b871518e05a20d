import Foundation
import NavAccess
import NavEngine
import NavModel
import NavServer
import NavService
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite(
  "Import: a scene's state document in pieces, checked, replacing the scene in a new epoch (PROTOCOL.md §3 Import)")
struct ImportTests {
  static let pushRoot: JSONValue = ["op": "push", "item": ["id": "root", "title": "R"]]
  /// A state document with two navigation items, made by mutations on an engine of its own.
  static func importedState() async -> JSONValue {
    let maker = NavdService(engine: Engine())
    let ops: JSONValue = [
      ["op": "push", "item": ["id": "inbox", "title": "Inbox"]],
      ["op": "push", "item": ["id": "mail", "title": "Mail"]],
    ]
    _ = await call(maker, "Mutate", ["scene": "main", "ops": ops])
    let (_, answer) = await call(maker, "GetState", ["scene": "main"])
    guard case .reply(let reply) = answer, let state = reply["state"] else { return .null }
    return state
  }

  /// `importedState` as JSON text, as navctl sends it.
  static func text() async -> String { JSONWriter.string(await importedState()) }

  /// Sends `text` in pieces of `piece` bytes (ASCII here) on one connection; the last answer.
  static func send(
    _ service: NavdService, scene: String, version: Int, text: String, piece: Int = 16, connection: UInt64 = 1,
    peer: PeerCredentials = PeerCredentials(pid: 1, uid: getuid(), gid: getgid())
  ) async -> InMemoryCallContext.Answer {
    let bytes = Array(text.utf8)
    var offset = 0
    while true {
      let end = min(offset + piece, bytes.count)
      let last = end == bytes.count
      let (_, answer) = await call(
        service, "Import",
        [
          "scene": .string(scene), "version": .number(Double(version)), "offset": .number(Double(offset)),
          "text": .string(String(decoding: bytes[offset..<end], as: UTF8.self)), "last": .bool(last),
        ], connection: connection, peer: peer)
      guard case .reply(let reply) = answer, !last else { return answer }
      #expect(reply["received"] == .number(Double(end)))
      offset = end
    }
  }

  @Test("an imported scene takes the document at its version in a new epoch, and a subscriber gets a snapshot of it")
  func importReplaces() async throws {
    let service = NavdService(engine: Engine())
    _ = await call(service, "Mutate", ["scene": "main", "ops": [Self.pushRoot]])
    let (_, before) = await call(service, "GetState", ["scene": "main"])
    let (subscription, streaming) = await call(service, "Subscribe", ["scene": "main", "view": "state"], more: true)
    #expect(streaming == .streaming)
    _ = try subscription.pullStream()
    let answer = await Self.send(service, scene: "main", version: 40, text: await Self.text())
    guard case .reply(let reply) = answer, case .reply(let old) = before else {
      return #expect(Bool(false), "\(answer)")
    }
    #expect(reply["version"] == 40)
    #expect(reply["created"] == false)
    #expect(reply["epoch"] != old["epoch"])
    let (_, after) = await call(service, "GetState", ["scene": "main"])
    guard case .reply(let state) = after else { return #expect(Bool(false), "\(after)") }
    #expect(state["version"] == 40)
    #expect(state["epoch"] == reply["epoch"])
    #expect(state["state"] == (await Self.importedState()))
    let frames = try subscription.pullStream()
    #expect(frames.map { $0["kind"] } == ["snapshot"])
    #expect(frames.first?["epoch"] == reply["epoch"])
    #expect(frames.first?["version"] == 40)
    #expect(frames.first?["document"] == state["state"])
    // The subscription goes on with the new history.
    _ = await call(
      service, "Mutate", ["scene": "main", "ops": [["op": "push", "item": ["id": "draft", "title": "D"]]]])
    let updates = try subscription.pullStream()
    #expect(updates.map { $0["kind"] } == ["update"])
    #expect(updates.first?["fromVersion"] == 40)
    subscription.cancelStream()
  }

  @Test(
    "R3 a document two stack items share an id in is refused naming the scene, the path and the rule; nothing changes")
  func refusedChangesNothing() async throws {
    let service = NavdService(engine: Engine())
    _ = await call(service, "Mutate", ["scene": "main", "ops": [Self.pushRoot]])
    let (_, before) = await call(service, "GetState", ["scene": "main"])
    let twice = (await Self.text()).replacingOccurrences(of: #""id":"mail""#, with: #""id":"inbox""#)
    let answer = await Self.send(service, scene: "main", version: 9, text: twice)
    guard case .error(let name, let parameters) = answer else { return #expect(Bool(false), "\(answer)") }
    #expect(name == "io.navd.DuplicateItem")
    #expect(parameters["field"] == "state.navigationBar.items[1].id")
    let message = parameters["message"]?.stringValue ?? ""
    #expect(message.contains("scene \"main\"") && message.contains("SEMANTICS R3"))
    let (_, after) = await call(service, "GetState", ["scene": "main"])
    #expect(after == before)
    // Nothing of it is held: the next piece at its offset does not continue it.
    let (_, next) = await call(
      service, "Import", ["scene": "main", "version": 9, "offset": 10, "text": "x", "last": true])
    guard case .error(_, let refusal) = next else { return #expect(Bool(false), "\(next)") }
    #expect(refusal["field"] == "offset")
  }

  @Test("R66 a scene's document past importSceneBytes is LimitExceeded naming the field and the limit")
  func byteLimit() async throws {
    let service = NavdService(engine: Engine(), importSceneBytes: 64)
    let text = await Self.text()
    #expect(text.utf8.count > 64)
    let answer = await Self.send(service, scene: "main", version: 3, text: text)
    guard case .error(let name, let parameters) = answer else { return #expect(Bool(false), "\(answer)") }
    #expect(name == "io.navd.LimitExceeded")
    #expect(parameters["limit"] == "importSceneBytes")
    #expect(parameters["max"] == 64)
    #expect(parameters["field"] == "text")
    let (_, state) = await call(service, "GetState", ["scene": "main"])
    guard case .reply(let reply) = state else { return #expect(Bool(false), "\(state)") }
    #expect(reply["version"] == 0)
  }

  @Test("R66 all connections' documents together past importTotalBytes is LimitExceeded; a closed one frees its share")
  func totalByteLimit() async throws {
    let text = await Self.text()
    let size = text.utf8.count
    let service = NavdService(engine: Engine(), importSceneBytes: size, importTotalBytes: size + size / 2)
    let piece = String(text.utf8.prefix(size / 2 + 1))!
    let (_, held) = await call(
      service, "Import", ["scene": "a", "version": 1, "offset": 0, "text": .string(piece), "last": false],
      connection: 1)
    guard case .reply = held else { return #expect(Bool(false), "\(held)") }
    let refused = await Self.send(service, scene: "main", version: 3, text: text, piece: size, connection: 2)
    guard case .error(let name, let parameters) = refused else { return #expect(Bool(false), "\(refused)") }
    #expect(name == "io.navd.LimitExceeded")
    #expect(parameters["limit"] == "importTotalBytes")
    #expect(parameters["max"] == .number(Double(size + size / 2)))
    #expect(parameters["field"] == "text")
    #expect(service.importBytesHeld == size / 2 + 1, "the refused document holds nothing")
    service.connectionClosed(1)
    #expect(service.importBytesHeld == 0)
    let imported = await Self.send(service, scene: "main", version: 3, text: text, piece: size, connection: 2)
    guard case .reply = imported else { return #expect(Bool(false), "\(imported)") }
  }

  @Test("R66 a whole document stops counting toward importTotalBytes once its import is answered, imported or refused")
  func checkedDocumentIsReleased() async throws {
    let text = await Self.text()
    let service = NavdService(engine: Engine())
    let imported = await Self.send(service, scene: "main", version: 3, text: text, piece: text.utf8.count)
    guard case .reply = imported else { return #expect(Bool(false), "\(imported)") }
    #expect(service.importBytesHeld == 0, "the imported document")
    let refused = await Self.send(service, scene: "main", version: 4, text: "{\"navigationBar\": 1}", piece: 64)
    guard case .error = refused else { return #expect(Bool(false), "\(refused)") }
    #expect(service.importBytesHeld == 0, "the refused document")
  }

  @Test("§10 Import needs the admin right: without it PermissionDenied names admin, and nothing is held")
  func needsAdmin() async throws {
    let alice = PeerCredentials(pid: 7, uid: 1001, gid: 1001)
    let policy = AccessPolicy(
      ownerUID: getuid(),
      rules: [AccessRule(principal: .user(1001), rights: [.read, .write], scenes: [ScenePattern("*")!])])
    let service = NavdService(engine: Engine(), access: AccessControl(policy: policy))
    let answer = await Self.send(service, scene: "main", version: 3, text: await Self.text(), peer: alice)
    guard case .error(let name, let parameters) = answer else { return #expect(Bool(false), "\(answer)") }
    #expect(name == "org.varlink.service.PermissionDenied")
    #expect(parameters["right"] == "admin")
  }

  @Test("a new scene's import creates it; a closed connection's pieces are dropped")
  func createsAndDrops() async throws {
    let service = NavdService(engine: Engine())
    let answer = await Self.send(service, scene: "mail", version: 5, text: await Self.text())
    guard case .reply(let reply) = answer else { return #expect(Bool(false), "\(answer)") }
    #expect(reply["created"] == true)
    #expect(service.engine.sceneNames == ["mail", "main"])
    _ = await call(service, "Import", ["scene": "x", "version": 1, "offset": 0, "text": "{", "last": false])
    service.connectionClosed(1)
    let (_, next) = await call(service, "Import", ["scene": "x", "version": 1, "offset": 1, "text": "}", "last": true])
    guard case .error(_, let refusal) = next else { return #expect(Bool(false), "\(next)") }
    #expect(refusal["field"] == "offset")
  }
}
