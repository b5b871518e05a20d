import NavModel
import NavWire
import Testing
import Varlink

/// The wire examples of PROTOCOL.md §3 and §7 decode to the values they stand for, and
/// bad parameters give the errors §3 and §9 name.
@Suite("io.navd messages on the wire")
struct NavMessagesWireTests {
  func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

  func parameters(ofFrame text: String) throws -> JSONValue {
    try json(text)["parameters"] ?? .null
  }

  @Test("§7 a Mutate call builds a mail app's bar; its reply says version 1")
  func mutateExample() throws {
    let call = try VarlinkCall(
      frame: Array(
        #"""
        {"method":"io.navd.Mutate","parameters":{"scene":"main","ops":[
            {"op":"defineBarButtonItem","barButtonItem":{"id":"edit","systemItem":"edit"}},
            {"op":"defineBarButtonItem","barButtonItem":{"id":"compose","systemItem":"compose","action":"mail.compose"}},
            {"op":"push","item":{"id":"inbox","title":"Inbox","leftBarButtonItems":["edit"],"rightBarButtonItems":["compose"]}}]}}
        """#.utf8))
    #expect(call.method == MutateCall.method.qualifiedName)
    let mutate = try MutateCall(parameters: .object(call.parameters))
    #expect(mutate.scene == "main")
    #expect(mutate.ops.count == 3)
    #expect(mutate.baseVersion == nil && mutate.policy == nil && mutate.clientId == nil)
    let reply = try MutationReply(
      parameters: try parameters(
        ofFrame: #"{"parameters":{"baseVersionExpired":false,"overwritten":[],"replayed":false,"version":1}}"#))
    #expect(reply == MutationReply(version: 1))
    #expect(
      String(decoding: VarlinkReply.encoded(parameters: reply.parameters), as: UTF8.self)
        == #"{"parameters":{"baseVersionExpired":false,"created":false,"overwritten":[],"replayed":false,"version":1}}"#
        + "\0")
  }

  @Test("§7 Subscribe at 375 points: the call, the snapshot and the update")
  func subscribeExample() throws {
    let call = try VarlinkCall(
      frame: Array(#"{"method":"io.navd.Subscribe","parameters":{"scene":"main","width":375},"more":true}"#.utf8))
    #expect(call.more)
    #expect(
      try SubscribeCall(parameters: .object(call.parameters))
        == SubscribeCall(scene: "main", view: .layout, metrics: LayoutMetrics(width: 375)))
    let snapshot = try SubscribeFrame(
      parameters: try parameters(
        ofFrame:
          #"{"parameters":{"document":{"prompt":null},"kind":"snapshot","version":1,"view":"layout@375.0"},"continues":true}"#
      ))
    #expect(snapshot == .snapshot(.init(version: 1, epoch: nil, view: "layout@375.0", document: ["prompt": nil])))
    let update = try SubscribeFrame(
      parameters: try parameters(
        ofFrame:
          #"{"parameters":{"animated":true,"events":[{"animated":true,"item":"message","type":"push"}],"fromVersion":1,"kind":"update","patch":[{"op":"replace","path":"/prompt","value":"x"}],"toVersion":2},"continues":true}"#
      ))
    #expect(
      update
        == .update(
          .init(
            fromVersion: 1, toVersion: 2,
            patch: try JSONPatch.decode([["op": "replace", "path": "/prompt", "value": "x"]]),
            animated: true, events: [["animated": true, "item": "message", "type": "push"]])))
  }

  @Test("§2 a stream frame encoded once is framed byte for byte like any continuing reply")
  func sharedStreamFraming() {
    let frame = WatchFrame.watching(scene: "main", version: 4).parameters
    var shared: [UInt8] = []
    VarlinkReply.encodeContinuing(encodedParameters: JSONWriter.bytes(frame), into: &shared)
    #expect(shared == VarlinkReply(parameters: frame.objectValue ?? [:], continues: true).encoded())
  }

  @Test("§3 WatchActions: the watching, activation and dropped frames as PROTOCOL.md spells them")
  func watchExample() throws {
    #expect(
      try WatchFrame(parameters: try json(#"{"kind": "watching", "scene": "main", "version": 4}"#))
        == .watching(scene: "main", version: 4))
    #expect(
      try WatchFrame(
        parameters: try json(
          #"{"kind": "activation", "scene": "main", "item": "compose", "action": null, "tag": 2, "version": 4}"#))
        == .activation(Activation(scene: "main", item: "compose", action: nil, tag: 2, version: 4)))
    #expect(
      try WatchFrame(parameters: try json(#"{"kind": "dropped", "scene": "main", "dropped": 3, "version": 9}"#))
        == .dropped(scene: "main", count: 3, version: 9))
  }

  @Test("§7 a rejected mutation: CannotPopRoot with field and opIndex")
  func rejectedExample() throws {
    let reply = try VarlinkReply(
      frame: Array(
        #"{"error":"io.navd.CannotPopRoot","parameters":{"field":"ops[0].op","message":"cannot pop the root item \"inbox\"; use setStack to clear","opIndex":0}}"#
          .utf8))
    let name = try #require(reply.error)
    let error = try #require(NavError(errorName: name, parameters: .object(reply.parameters)))
    #expect(
      error
        == NavError(
          .cannotPopRoot, "cannot pop the root item \"inbox\"; use setStack to clear", field: "ops[0].op", opIndex: 0))
  }

  @Test("§7 a bad parameter: GetLayout with width \"wide\" is InvalidParameter width")
  func badParameterExample() throws {
    #expect(throws: CallError.invalid("width")) {
      try GetLayoutCall(parameters: try json(#"{"scene":"main","width":"wide"}"#))
    }
    #expect(CallError.invalid("width").errorName == VarlinkServiceNames.invalidParameter)
    #expect(CallError.invalid("width").errorParameters == ["parameter": "width"])
  }

  @Test("§3, §9.1, §9.11: which parameter each bad call names, and value errors as NavError")
  func decodingErrors() throws {
    #expect(throws: CallError.invalid("bogus")) {
      try GetStateCall(parameters: ["scene": "main", "zeta": 1, "bogus": 1])
    }
    #expect(throws: CallError.invalid("scene")) { try GetStateCall(parameters: [:]) }
    #expect(throws: CallError.invalid("scene")) { try WatchActionsCall(parameters: ["scene": 3]) }
    #expect(throws: CallError.invalid("x")) { try GetServerInfoCall(parameters: ["x": 1]) }
    #expect(throws: CallError.invalid("width")) { try GetLayoutCall(parameters: ["scene": "main", "width": 0]) }
    #expect(throws: CallError.invalid("width")) { try GetLayoutCall(parameters: ["scene": "main", "width": 10_000.5]) }
    #expect(throws: CallError.invalid("navigationBarPosition")) {
      try GetLayoutCall(parameters: ["scene": "main", "navigationBarPosition": "bottom"])
    }
    #expect(throws: CallError.invalid("toolbarPosition")) {
      try GetLayoutCall(parameters: ["scene": "main", "toolbarPosition": "topAttached"])
    }
    #expect(throws: CallError.invalid("width")) {
      try SubscribeCall(parameters: ["scene": "main", "view": "state", "width": 300])
    }
    #expect(throws: CallError.invalid("view")) { try SubscribeCall(parameters: ["scene": "main", "view": "pixels"]) }
    #expect(throws: CallError.invalid("sinceVersion")) {
      try SubscribeCall(parameters: ["scene": "main", "sinceVersion": -1])
    }
    #expect(throws: CallError.invalid("waitForScene")) {
      try SubscribeCall(parameters: ["scene": "main", "waitForScene": "yes"])
    }
    #expect(throws: CallError.invalid("ops")) { try MutateCall(parameters: ["scene": "main", "ops": ["op": "pop"]]) }
    #expect(throws: CallError.invalid("policy")) {
      try MutateCall(parameters: ["scene": "main", "ops": [["op": "pop"]], "policy": "whatever"])
    }
    #expect(throws: CallError.invalid("baseVersion")) {
      try MutateCall(parameters: ["scene": "main", "ops": [["op": "pop"]], "baseVersion": 1.5])
    }
    do {
      _ = try MutateCall(parameters: ["scene": "main", "ops": [["op": "fly"]]])
      Issue.record("an unknown op was accepted")
    } catch {
      guard case .rejected(let error) = error else { throw error }
      #expect(error.code == .invalidMutation)
      #expect(error.errorName == NavErrorName.invalidMutation.rawValue)
    }
    do {
      _ = try MutateCall(parameters: ["scene": "main", "ops": [["op": "pop"]], "clientId": ""])
      Issue.record("an empty clientId was accepted")
    } catch {
      #expect(error == .rejected(NavError(.invalidMutation, "clientId must not be empty", field: "clientId")))
    }
    do {
      _ = try ActivateCall(
        parameters: ["scene": "main", "item": "x", "clientId": .string(String(repeating: "c", count: 129))])
      Issue.record("a 129-byte clientId was accepted")
    } catch {
      guard case .rejected(let error) = error else { throw error }
      #expect(error.code == .limitExceeded && error.limit == "clientIdBytes" && error.max == 128)
    }
  }
}
