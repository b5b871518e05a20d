import NavModel
import NavWire
import Varlink

/// Values of every io.navd message, for `ProtocolIDLTests`: for each method, calls and replies
/// (every frame kind) that between them set every field the Swift types can send, and each
/// error as navd builds it. Their encodings are what the test checks against the IDL.
enum ProtocolIDLSamples {
  static let metrics = LayoutMetrics(
    width: 320, compact: true, navigationBarPosition: .topAttached, toolbarPosition: .top)

  /// Call samples by method: the fewest parameters and the most.
  static func calls(_ method: NavMethod) -> [any NavCall] {
    switch method {
    case .getServerInfo: [GetServerInfoCall()]
    case .getStatistics: [GetStatisticsCall()]
    case .listScenes: [ListScenesCall()]
    case .getState: [GetStateCall(scene: "main")]
    case .getLayout: [GetLayoutCall(scene: "main"), GetLayoutCall(scene: "main", metrics: metrics)]
    case .subscribe:
      [
        SubscribeCall(scene: "main"), SubscribeCall(scene: "main", metrics: metrics),
        SubscribeCall(
          scene: "main", view: .state, metrics: metrics, sinceVersion: 3, epoch: "e1", waitForScene: true),
      ]
    case .mutate:
      [
        MutateCall(scene: "main", ops: []),
        MutateCall(
          scene: "main", ops: [], baseVersion: 2, epoch: "e1", mutationId: "m1", clientId: "c1",
          policy: .failOnConflict),
      ]
    case .export: [ExportCall(), ExportCall(scenes: ["main"])]
    case .deleteScene: [DeleteSceneCall(scene: "main"), DeleteSceneCall(scene: "main", ifVersion: 4)]
    case .importScene: [ImportCall(scene: "main", version: 3, offset: 0, text: "{}", last: true)]
    case .activate:
      [
        ActivateCall(scene: "main", item: "save"),
        ActivateCall(scene: "main", item: "@back", metrics: metrics, expectTop: "inbox", clientId: "c1"),
      ]
    case .watchActions: [WatchActionsCall(scene: "main")]
    }
  }

  /// Reply (or frame) samples by method.
  static func replies(_ method: NavMethod) throws -> [any NavReply] {
    switch method {
    case .getServerInfo:
      [
        ServerInfo(
          version: "0.1.0", protocolVersion: "1.0", pid: 7, uptimeSeconds: 1.5, scenes: 1, connections: 2,
          subscribers: 3)
      ]
    case .getStatistics: [statistics]
    case .listScenes: [SceneList(scenes: [SceneSummary(name: "main", version: 1, subscribers: 0)])]
    case .getState: [StateReply(version: 1, epoch: "e1", state: SceneState())]
    case .getLayout: [LayoutReply(version: 1, epoch: "e1", layout: [:])]
    case .subscribe:
      [
        SubscribeFrame.snapshot(.init(version: 1, epoch: "e1", view: "layout", document: [:])),
        SubscribeFrame.update(
          .init(
            fromVersion: 1, toVersion: 2,
            patch: [try PatchOperation(json: ["op": "replace", "path": "/a", "value": 1])], animated: true,
            events: [["kind": "pushed"]], coalesced: true)),
        SubscribeFrame.events(.init(version: 2, events: [["kind": "pushed"]])),
      ]
    case .mutate:
      [
        MutationReply(version: 1),
        MutationReply(
          version: 2, overwritten: [.init(field: "toolbar/items", previousValue: .null, version: 1)],
          baseVersionExpired: true, replayed: true, created: true),
      ]
    case .export:
      [
        ExportFrame.scene(name: "main", epoch: "e1", version: 1, chunks: 1), ExportFrame.state(text: "{}"),
        ExportFrame.end(scenes: 1),
      ]
    case .deleteScene: [DeletedScene(version: 3, epoch: "e1")]
    case .importScene:
      [ImportReply(received: 2), ImportReply(received: 2, epoch: "e1", version: 3, created: true)]
    case .activate:
      [ActivationResult(action: "save", watchers: 1), ActivationResult(action: nil, watchers: 0, version: 3)]
    case .watchActions:
      [
        WatchFrame.watching(scene: "main", version: 1),
        WatchFrame.activation(.init(scene: "main", item: "save", action: "save", tag: 2, version: 1)),
        WatchFrame.dropped(scene: "main", count: 2, version: 1),
      ]
    }
  }

  static var statistics: NavStatistics {
    var counts = SceneCounts()
    counts.refusals = [NamedCount(name: "io.navd.Conflict", count: 1)]
    return NavStatistics(
      uptimeSeconds: 2, connections: 1, acceptedConnections: 3, rejectedConnections: 0, totals: counts,
      waitingSubscribers: 0, denials: [NamedCount(name: "read", count: 1)],
      commitLatency: LatencyHistogram(buckets: [.init(le: 0.001, count: 1)], sum: 0.0005, count: 1), redoBytes: 10,
      databaseBytes: 20, scenes: [SceneStatistics(name: "main", version: 1, epoch: "e1", counts: counts)],
      users: [UserUsage(uid: 1000, scenes: 1, maxScenes: 64, waitedScenes: 0, maxWaitedScenes: 64)])
  }

  /// Error samples: name and parameters, as navd builds each.
  static var errors: [(name: String, parameters: JSONValue)] {
    let detailed: [NavError.Code] = [
      .invalidMutation, .itemNotFound, .duplicateItem, .itemAlreadyOnStack, .cannotPopRoot,
    ]
    var errors = detailed.map { code in
      NavError(code, "bad", field: "item", value: "x", opIndex: 0)
    }
    errors += [
      NavError(.invalidMutation, "stale", field: "baseVersion", value: "5", extra: ["currentVersion": 1]),
      NavError(.limitExceeded, "long", field: "title", value: "xxxx", limit: "titleMaxLength", max: 256, opIndex: 1),
      NavError(
        .conflict, "changed", field: "item", value: "x", opIndex: 0,
        extra: [
          "currentVersion": 3,
          "conflicts": [ConflictingField(field: "toolbar/items", currentValue: .null, version: 2).json],
        ]),
      NavError(.sceneNotFound, "no scene", field: "scene", value: "mian"),
      NavError(.itemNotActivatable, "disabled", field: "item", value: "save"),
      NavError(.storageFailed, "disk full"),
    ]
    let refusal = ConnectionRefusal(limit: "connections", max: 4096, value: 4097, message: "full")
    let deleted = SceneDeletedError(scene: "main", version: 3)
    return errors.map { ($0.errorName, $0.parameters) } + [
      (NavErrorName.limitExceeded.rawValue, refusal.limitExceededParameters),
      (deleted.errorName, deleted.errorParameters),
      (ServerStopping.name, ServerStopping(message: "navd is stopping", restarting: false).errorParameters),
    ]
  }
}
