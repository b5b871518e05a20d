import NavModel
import NavWire
import Testing
import Varlink

/// Every io.navd message, encoded and decoded again, is the value it started as
/// (PROTOCOL.md §3: the shapes of every method's parameters, replies and frames).
@Suite("io.navd messages round-trip")
struct NavMessagesRoundTripTests {
  func roundTrip<Call: NavCall>(_ call: Call, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let bytes = JSONWriter.bytes(call.parameters)
    #expect(try Call(parameters: try JSONParser.parse(bytes)) == call, sourceLocation: sourceLocation)
  }

  func roundTrip<Reply: NavReply>(reply: Reply, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let bytes = JSONWriter.bytes(reply.parameters)
    #expect(try Reply(parameters: try JSONParser.parse(bytes)) == reply, sourceLocation: sourceLocation)
  }

  static let ops: [Op] = try! Op.list(
    json: try! JSONParser.parse(
      Array(
        #"""
        [{"op":"defineBarButtonItem","barButtonItem":{"id":"compose","systemItem":"compose","action":"mail.compose"}},
         {"op":"push","item":{"id":"inbox","title":"Inbox","rightBarButtonItems":["compose"]},"animated":true},
         {"op":"pop","expectTop":"inbox"}]
        """#.utf8)))

  static let metrics = LayoutMetrics(
    width: 375, compact: true, navigationBarPosition: .topAttached, toolbarPosition: .top)

  @Test("§3 calls: every method's parameters, with and without their optional ones")
  func calls() throws {
    try roundTrip(GetServerInfoCall())
    try roundTrip(ListScenesCall())
    try roundTrip(GetStateCall(scene: "main"))
    try roundTrip(GetLayoutCall(scene: "main"))
    try roundTrip(GetLayoutCall(scene: "side", metrics: Self.metrics))
    try roundTrip(GetLayoutCall(scene: "side", metrics: LayoutMetrics(width: 320.5)))
    try roundTrip(SubscribeCall(scene: "main"))
    try roundTrip(SubscribeCall(scene: "main", view: .state, sinceVersion: 7, epoch: "00000000000000ff"))
    try roundTrip(SubscribeCall(scene: "main", view: .layout, metrics: Self.metrics, sinceVersion: 0))
    try roundTrip(SubscribeCall(scene: "later", view: .state, waitForScene: true))
    #expect(SubscribeCall(scene: "later", waitForScene: true).parameters["waitForScene"] == true)
    #expect(SubscribeCall(scene: "main").parameters["waitForScene"] == nil, "false is not sent")
    try roundTrip(MutateCall(scene: "main", ops: Self.ops))
    try roundTrip(
      MutateCall(
        scene: "main", ops: Self.ops, baseVersion: 12, epoch: "0123456789abcdef", mutationId: "m1", clientId: "app",
        policy: .failOnConflict))
    try roundTrip(MutateCall(scene: "main", ops: Self.ops, policy: .lastWriterWins))
    try roundTrip(ActivateCall(scene: "main", item: "compose"))
    try roundTrip(ActivateCall(scene: "main", item: "compose", metrics: Self.metrics))
    try roundTrip(
      ActivateCall(scene: "main", item: ActivateCall.backButtonItem, expectTop: "message", clientId: "shell"))
    try roundTrip(WatchActionsCall(scene: "main"))
  }

  @Test("§3 replies: every method's reply")
  func replies() throws {
    try roundTrip(
      reply: ServerInfo(
        version: "0.1.0", protocolVersion: NavProtocol.version, pid: 42, uptimeSeconds: 1.25, scenes: 2,
        connections: 3, subscribers: 4))
    try roundTrip(reply: SceneList(scenes: []))
    try roundTrip(
      reply: SceneList(scenes: [
        SceneSummary(name: "main", version: 3, subscribers: 1), SceneSummary(name: "side", version: 0, subscribers: 0),
      ]))
    var state = SceneState.empty
    state = try state.applying(Array(Self.ops.dropLast())).state
    try roundTrip(reply: StateReply(version: 2, epoch: "0123456789abcdef", state: state))
    try roundTrip(reply: StateReply(version: 0, epoch: nil, state: .empty))
    let layout = LayoutResolver.resolve(state, metrics: Self.metrics).json
    try roundTrip(reply: LayoutReply(version: 2, epoch: "0123456789abcdef", layout: layout))
    try roundTrip(reply: MutationReply(version: 1))
    try roundTrip(
      reply: MutationReply(
        version: 9,
        overwritten: [
          .init(field: "navigationItem/inbox/title", previousValue: "Inbox", version: 4),
          .init(field: "navigationItem/inbox/prompt", previousValue: nil, version: 5),
        ], baseVersionExpired: true, replayed: true))
    try roundTrip(reply: ActivationResult(action: "mail.compose", watchers: 2))
    try roundTrip(reply: ActivationResult(action: nil, watchers: 0))
    try roundTrip(reply: ActivationResult(action: nil, watchers: 0, version: 8))
  }

  @Test("§3 Subscribe frames: snapshot, update (plain and coalesced), events, and a kind from a newer navd")
  func subscribeFrames() throws {
    let patch = try JSONPatch.decode(
      [
        ["op": "add", "path": "/navigationBar/items/1", "value": ["id": "message"]],
        ["op": "remove", "path": "/prompt"],
      ])
    try roundTrip(
      reply: SubscribeFrame.snapshot(
        .init(version: 1, epoch: "0123456789abcdef", view: "layout@375.0", document: ["navigationBar": [:]])))
    try roundTrip(reply: SubscribeFrame.snapshot(.init(version: 0, epoch: nil, view: nil, document: [:])))
    try roundTrip(
      reply: SubscribeFrame.update(
        .init(
          fromVersion: 1, toVersion: 2, patch: patch, animated: true,
          events: [["type": "push", "item": "message", "animated": true]])))
    try roundTrip(
      reply: SubscribeFrame.update(.init(fromVersion: 2, toVersion: 9, patch: patch, animated: false, coalesced: true)))
    try roundTrip(
      reply: SubscribeFrame.events(
        .init(version: 9, events: [["type": "activate", "item": "compose", "action": "mail.compose", "tag": 0]])))
    try roundTrip(reply: SubscribeFrame.unknown(["kind": "telemetry", "x": 1]))
  }

  @Test("§3 WatchActions frames: watching, activation, dropped, and a kind from a newer navd")
  func watchFrames() throws {
    try roundTrip(reply: WatchFrame.watching(scene: "main", version: 3))
    try roundTrip(
      reply: WatchFrame.activation(
        Activation(scene: "main", item: "compose", action: "mail.compose", tag: 7, version: 3)))
    try roundTrip(
      reply: WatchFrame.activation(Activation(scene: "main", item: "done", action: nil, tag: 0, version: 3)))
    try roundTrip(reply: WatchFrame.dropped(scene: "main", count: 4, version: 11))
    try roundTrip(reply: WatchFrame.unknown(["kind": "later", "scene": "main"]))
  }

  @Test("§5 errors: every io.navd error name maps to one code and back, with its parameters")
  func errors() throws {
    for code in NavError.Code.allCases {
      let name = NavErrorName(code)
      #expect(name.code == code)
      #expect(name.rawValue == "\(NavProtocol.interface).\(code.rawValue)")
    }
    #expect(Set(NavErrorName.allCases.map(\.code)).count == NavError.Code.allCases.count)
    let samples = [
      NavError(.cannotPopRoot, "cannot pop the root item", field: "ops[0].op", opIndex: 0),
      NavError(
        .limitExceeded, "clientId is 129 bytes; the limit is 128", field: "clientId", value: "x",
        limit: "clientIdBytes",
        max: 128),
      NavError(
        .conflict, "changed since version 3", field: "ops[1]", opIndex: 1,
        extra: [
          "currentVersion": 5,
          "conflicts": [["field": "navigationItem/inbox/title", "currentValue": "New", "version": 4]],
        ]),
      NavError(.storageFailed, "disk full"),
    ]
    for error in samples {
      let wire = try JSONParser.parse(JSONWriter.bytes(error.parameters))
      #expect(NavError(errorName: error.errorName, parameters: wire) == error)
    }
    #expect(samples[2].currentVersion == 5)
    #expect(
      samples[2].conflicts == [ConflictingField(field: "navigationItem/inbox/title", currentValue: "New", version: 4)])
    #expect(NavError(errorName: VarlinkServiceNames.invalidParameter, parameters: ["message": "x"]) == nil)
    let denied = PermissionDenied(
      right: "write", scene: "mail", message: "the write right on scene mail is not granted")
    #expect(PermissionDenied(parameters: denied.parameters) == denied)
    #expect(
      InvalidParameter(parameters: InvalidParameter(parameter: "width").parameters)
        == InvalidParameter(parameter: "width"))
  }
}
