import Foundation
import NavEngine
import NavModel
import NavServer
import NavService
import Testing
import Varlink

@Suite("io.navd over an in-memory context")
struct NavdServiceTests {
  let service = NavdService(engine: Engine())

  static let pushRoot: JSONValue = ["op": "push", "item": ["id": "root", "title": "Inbox"]]

  @Test("Mutate replies with the new version; GetState returns the document")
  func mutateThenGetState() async throws {
    let (_, answer) = await call(service, "Mutate", ["scene": "main", "ops": [Self.pushRoot]])
    #expect(
      answer
        == .reply(["version": 1, "overwritten": [], "baseVersionExpired": false, "replayed": false, "created": false]))
    let (_, state) = await call(service, "GetState", ["scene": "main"])
    guard case .reply(let reply) = state else {
      Issue.record("\(state)")
      return
    }
    #expect(reply["version"] == 1)
    #expect(reply["state"]?["navigationBar"]?["items"]?.arrayValue?.count == 1)
  }

  @Test("A mutation creates its scene; a read of an unknown scene is SceneNotFound")
  func scenesCreatedByMutation() async throws {
    let (_, missing) = await call(service, "GetState", ["scene": "other"])
    guard case .error(let name, let parameters) = missing else {
      Issue.record("\(missing)")
      return
    }
    #expect(name == "io.navd.SceneNotFound")
    #expect(parameters["field"] == "scene")
    _ = await call(service, "Mutate", ["scene": "other", "ops": [Self.pushRoot]])
    let (_, list) = await call(service, "ListScenes")
    guard case .reply(let reply) = list else {
      Issue.record("\(list)")
      return
    }
    #expect(reply["scenes"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["main", "other"])
  }

  @Test("Unknown, missing and mistyped parameters are InvalidParameter naming the parameter")
  func invalidParameters() async throws {
    let cases: [(String, JSONValue, String)] = [
      ("GetState", ["scene": "main", "colour": "red"], "colour"),
      ("GetState", [:], "scene"),
      ("GetState", ["scene": 7], "scene"),
      ("GetLayout", ["scene": "main", "width": -1], "width"),
      ("Mutate", ["scene": "main"], "ops"),
      ("Mutate", ["scene": "main", "ops": [Self.pushRoot], "baseVersion": 1.5], "baseVersion"),
      ("Mutate", ["scene": "main", "ops": [Self.pushRoot], "policy": "sometimes"], "policy"),
      ("Subscribe", ["scene": "main", "view": "pixels"], "view"),
      ("Subscribe", ["scene": "main", "view": "state", "width": 320], "width"),
    ]
    for (method, parameters, parameter) in cases {
      let (_, answer) = await call(service, method, parameters, more: method == "Subscribe")
      #expect(
        answer == .error("org.varlink.service.InvalidParameter", ["parameter": .string(parameter)]),
        "\(method) \(parameters)")
    }
  }

  @Test("R7 R50 layout metrics: compact and bar positions pick background images; bad values are InvalidParameter")
  func layoutMetrics() async throws {
    let image: (String) -> JSONValue = { name in ["name": .string(name), "opaque": true] }
    let ops: JSONValue = [
      Self.pushRoot,
      [
        "op": "updateAppearance", "target": "navigationBar",
        "set": [
          "backgroundImages": [
            ["position": "any", "metrics": "default", "image": image("regular")],
            ["position": "any", "metrics": "compact", "image": image("compact")],
            ["position": "topAttached", "metrics": "default", "image": image("attached")],
          ]
        ],
      ],
    ]
    _ = await call(service, "Mutate", ["scene": "main", "ops": ops])
    func backgroundImage(_ parameters: JSONValue) async -> JSONValue? {
      let (_, answer) = await call(service, "GetLayout", parameters)
      guard case .reply(let reply) = answer else {
        Issue.record("\(answer)")
        return nil
      }
      return reply["layout"]?["navigationBar"]?["appearance"]?["backgroundImage"]?["name"]
    }
    #expect(await backgroundImage(["scene": "main"]) == "regular")
    #expect(await backgroundImage(["scene": "main", "compact": true]) == "compact")
    #expect(await backgroundImage(["scene": "main", "navigationBarPosition": "topAttached"]) == "attached")
    for (parameter, value) in [
      ("navigationBarPosition", "bottom"), ("toolbarPosition", "topAttached"), ("compact", "yes"),
    ] {
      let parameters: JSONValue = .object(["scene": "main", parameter: .string(value)])
      let (_, answer) = await call(service, "GetLayout", parameters)
      #expect(answer == .error("org.varlink.service.InvalidParameter", ["parameter": .string(parameter)]))
    }
    let (_, stateView) = await call(
      service, "Subscribe", ["scene": "main", "view": "state", "compact": true], more: true)
    #expect(stateView == .error("org.varlink.service.InvalidParameter", ["parameter": "compact"]))
  }

  @Test("A malformed op is InvalidMutation with the op index and field path")
  func invalidMutation() async throws {
    let ops: JSONValue = [Self.pushRoot, ["op": "updateNavigationItem", "item": "root", "set": ["titel": "x"]]]
    let (_, answer) = await call(service, "Mutate", ["scene": "main", "ops": ops])
    guard case .error(let name, let parameters) = answer else {
      Issue.record("\(answer)")
      return
    }
    #expect(name == "io.navd.InvalidMutation")
    #expect(parameters["field"] == "ops[1].set.titel")
  }

  @Test("Subscribe and WatchActions without more are ExpectedMore")
  func streamsNeedMore() async throws {
    for method in ["Subscribe", "WatchActions"] {
      let (_, answer) = await call(service, method, ["scene": "main"])
      #expect(answer == .error("org.varlink.service.ExpectedMore", [:]))
    }
  }

  @Test("R61 Subscribe streams a snapshot, then one update per mutation with its events")
  func subscribeStreams() async throws {
    let (subscription, answer) = await call(service, "Subscribe", ["scene": "main", "view": "state"], more: true)
    #expect(answer == .streaming)
    let first = try subscription.pullStream()
    #expect(first.map { $0["kind"] } == ["snapshot"])
    _ = await call(service, "Mutate", ["scene": "main", "ops": [Self.pushRoot]])
    let updates = try subscription.pullStream()
    #expect(updates.map { $0["kind"] } == ["update"])
    #expect(updates.first?["events"] == [["type": "push", "item": "root", "animated": false]])
    var document = first[0]["document"]!
    document = try PatchApplier.apply(try JSONPatch.decode(updates[0]["patch"]!), to: document)
    let (_, state) = await call(service, "GetState", ["scene": "main"])
    guard case .reply(let reply) = state else {
      Issue.record("\(state)")
      return
    }
    #expect(document == reply["state"])
    subscription.cancelStream()
  }

  @Test("R58 R59 Activate delivers the action to watchers; an unknown item is ItemNotFound")
  func activateDelivers() async throws {
    let ops: JSONValue = [
      ["op": "defineBarButtonItem", "barButtonItem": ["id": "compose", "title": "Compose", "action": "mail.compose"]],
      ["op": "push", "item": ["id": "inbox", "title": "Inbox", "rightBarButtonItems": ["compose"]]],
    ]
    _ = await call(service, "Mutate", ["scene": "main", "ops": ops])
    let (watcher, streaming) = await call(service, "WatchActions", ["scene": "main"], more: true)
    #expect(streaming == .streaming)
    let (subscription, _) = await call(service, "Subscribe", ["scene": "main"], more: true)
    _ = try subscription.pullStream()
    let (_, answer) = await call(service, "Activate", ["scene": "main", "item": "compose"])
    #expect(answer == .reply(["action": "mail.compose", "watchers": 1]))
    let actions = try watcher.pullStream()
    #expect(actions.first == ["kind": "watching", "scene": "main", "version": 1], "§3 WatchActions: registered")
    #expect(actions.last?["kind"] == "activation")
    #expect(actions.last?["action"] == "mail.compose")
    #expect(actions.last?["item"] == "compose")
    // R59: subscribers hear it as an events reply, with no version change and no patch.
    #expect(
      try subscription.pullStream() == [
        [
          "kind": "events", "version": 1,
          "events": [["type": "activate", "item": "compose", "action": "mail.compose", "tag": 0]],
        ]
      ])
    let (_, missing) = await call(service, "Activate", ["scene": "main", "item": "nope"])
    guard case .error(let name, _) = missing else {
      Issue.record("\(missing)")
      return
    }
    #expect(name == "io.navd.ItemNotFound")
  }

  @Test("R60 activating @back pops the top as a mutation; with no back button it is ItemNotActivatable")
  func activateBack() async throws {
    let (_, rootOnly) = await call(service, "Mutate", ["scene": "main", "ops": [Self.pushRoot]])
    #expect(
      rootOnly
        == .reply(["version": 1, "overwritten": [], "baseVersionExpired": false, "replayed": false, "created": false]))
    let (_, refused) = await call(service, "Activate", ["scene": "main", "item": "@back"])
    guard case .error(let name, _) = refused else {
      Issue.record("\(refused)")
      return
    }
    #expect(name == "io.navd.ItemNotActivatable")
    _ = await call(service, "Mutate", ["scene": "main", "ops": [["op": "push", "item": ["id": "message"]]]])
    let (_, stale) = await call(service, "Activate", ["scene": "main", "item": "@back", "expectTop": "other"])
    guard case .error(let conflict, _) = stale else {
      Issue.record("\(stale)")
      return
    }
    #expect(conflict == "io.navd.Conflict")
    let (_, popped) = await call(service, "Activate", ["scene": "main", "item": "@back", "expectTop": "message"])
    #expect(popped == .reply(["action": nil, "watchers": 0, "version": 3]))
    let (_, state) = await call(service, "GetState", ["scene": "main"])
    guard case .reply(let reply) = state else {
      Issue.record("\(state)")
      return
    }
    #expect(reply["state"]?["navigationBar"]?["items"]?.arrayValue?.count == 1)
  }

  @Test("Retrying a mutationId with the same clientId on another connection is answered from memory")
  func idempotentAcrossConnections() async throws {
    let parameters: JSONValue = ["scene": "main", "ops": [Self.pushRoot], "mutationId": "m1", "clientId": "app"]
    let (_, first) = await call(service, "Mutate", parameters, connection: 1)
    let (_, retry) = await call(service, "Mutate", parameters, connection: 2)
    #expect(
      first
        == .reply(["version": 1, "overwritten": [], "baseVersionExpired": false, "replayed": false, "created": false]))
    #expect(
      retry
        == .reply(["version": 1, "overwritten": [], "baseVersionExpired": false, "replayed": true, "created": false]))
  }

  @Test(
    "PROTOCOL §1: the embedded interface definition is Protocol/io.navd.varlink byte for byte, final newline included")
  func interfaceDefinitionMatchesFile() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let file = try String(contentsOf: root.appendingPathComponent("Protocol/io.navd.varlink"), encoding: .utf8)
    #expect(navdInterfaceDefinition == file, "run scripts/embed-idl")
  }
}
