import Glibc
import NavAccess
import NavEngine
import NavModel
import NavServer
import NavWire
import Synchronization
import Varlink

/// The io.navd interface: turns each call into engine work and its result into a reply.
///
/// `handle` runs on the event loop and returns at once. A call about one scene enters
/// that scene's actor synchronously (`SceneEngine.enter`: the scenes run on the event
/// loop), which answers through the call's context; a `Mutate` is answered once its
/// group is stored and published (`Engine.submit`). Only calls that wait or visit every
/// scene run in a task.
public final class NavdService: CallHandler {
  /// The scenes this service serves.
  public let engine: Engine
  let startedAt: Double
  /// Where the tasks of calls that need one run: the server's event loop when given.
  private let executor: (any TaskExecutor)?
  let nextSubscriberID = Atomic<UInt64>(1)
  /// Who may do what (PROTOCOL.md § Access); checked before any engine work.
  private let access: AccessGate
  /// The open streams of peers whose rights a reload may take back.
  let streams = StreamGrants()
  /// Every open stream, for ending a deleted scene's.
  let sceneStreams = SceneStreams()
  /// The scene documents connections are importing, piece by piece (`Import`).
  let importStaging: ImportStaging

  /// `access` defaults to navd's safe default: only this process's uid and root.
  /// `executor` (the server's `EventLoopExecutor`) runs the calls' tasks. `importSceneBytes`
  /// bounds each scene document an `Import` holds while it arrives, `importTotalBytes` all
  /// connections' documents together.
  public init(
    engine: Engine, access: AccessControl = AccessControl(ownerUID: getuid()), executor: (any TaskExecutor)? = nil,
    importSceneBytes: Int = NavdService.defaultImportSceneBytes,
    importTotalBytes: Int = NavdService.defaultImportTotalBytes
  ) {
    self.importStaging = ImportStaging(sceneBytes: importSceneBytes, totalBytes: importTotalBytes)
    self.engine = engine
    self.executor = executor
    self.startedAt = Engine.monotonicSeconds()
    self.access = AccessGate(control: access)
  }

  /// Ends every stream the access policy now in force no longer grants (after a reload
  /// put it in force), each with `PermissionDenied` (`revoked: true`); returns how many.
  @discardableResult
  public func accessPolicyChanged() -> Int {
    streams.revoke(under: access.control.policy)
  }

  /// Whether the call's peer may read each scene.
  func readableScenes(_ context: any CallContext) -> @Sendable (String) -> Bool { access.readableScenes(context) }

  /// Answers `PermissionDenied` for `right` on `scene`.
  func deny(_ right: AccessRight, scene: String, _ context: any CallContext) {
    access.deny(right, scene: scene, context)
  }

  /// Starts a call's work on the preferred executor.
  func run(_ work: sending @escaping @isolated(any) () async -> Void) {
    Task(executorPreference: executor, operation: work)
  }

  /// Routes one io.navd call to its handler (`CallHandler`); returns at once.
  public func handle(_ call: VarlinkCall, context: any CallContext) {
    guard let method = NavMethod(methodOf: call) else {
      context.fail(MethodNotFound(method: call.method))
      return
    }
    guard access.admit(method, call, context) else { return }
    // Built only for the methods decoded from a dictionary; Mutate reads its frame.
    var parameters: JSONValue { .object(call.parameters) }
    do throws(CallError) {
      switch method {
      case .getServerInfo: try getServerInfo(GetServerInfoCall(parameters: parameters), context)
      case .listScenes: try listScenes(ListScenesCall(parameters: parameters), context)
      case .getState: try getState(GetStateCall(parameters: parameters), context)
      case .getLayout: try getLayout(GetLayoutCall(parameters: parameters), context)
      case .subscribe: try subscribe(SubscribeCall(parameters: parameters), more: call.more, context)
      case .mutate: try mutate(Self.mutateCall(call), context)
      case .activate: try activate(ActivateCall(parameters: parameters), context)
      case .watchActions: try watchActions(WatchActionsCall(parameters: parameters), more: call.more, context)
      case .deleteScene: deleteScene(try DeleteSceneCall(parameters: parameters), context)
      case .getStatistics: getStatistics(try GetStatisticsCall(parameters: parameters), context)
      case .export: export(try ExportCall(parameters: parameters), more: call.more, context)
      case .importScene: try importScene(ImportCall(parameters: parameters), context)
      }
    } catch {
      context.fail(error)
    }
  }

  /// The default bound on one scene document an `Import` holds while it arrives (bytes).
  public static let defaultImportSceneBytes = ImportStaging.defaultSceneBytes
  /// The default bound on all connections' `Import` documents together, in bytes.
  public static let defaultImportTotalBytes = ImportStaging.defaultTotalBytes

  /// A connection closed: the scene document it was importing, if any, goes.
  public func connectionClosed(_ connectionID: UInt64) { importStaging.drop(connection: connectionID) }

  /// The bytes of `Import` documents connections hold together while they arrive.
  public var importBytesHeld: Int { importStaging.stagedBytes }

  /// Decodes a large `Mutate`'s parameters ahead (`CallHandler.prepare`), off the loop:
  /// the ops of a frame of up to 1 MiB are read there. Every other call is left as it is.
  /// Its ops are encoded there too (`EncodedOps`), which the scene would do otherwise.
  public func prepare(_ call: inout VarlinkCall) {
    guard NavMethod(methodOf: call) == .mutate else { return }
    let decoded: Result<PreparedMutate, CallError>
    do throws(CallError) {
      let mutate = try MutateCall(call: call)
      decoded = .success(PreparedMutate(call: mutate, encodedOps: EncodedOps(mutate.ops)))
    } catch {
      decoded = .failure(error)
    }
    call.decoded = decoded
  }

  /// A `Mutate` decoded ahead (`prepare`), with its ops' wire form.
  struct PreparedMutate: Sendable {
    var call: MutateCall
    var encodedOps: EncodedOps?
  }

  /// The `Mutate` decoded ahead by `prepare`, else decoded now; the same error either way.
  private static func mutateCall(_ call: VarlinkCall) throws(CallError) -> PreparedMutate {
    guard let decoded = call.decoded as? Result<PreparedMutate, CallError> else {
      return PreparedMutate(call: try MutateCall(call: call))
    }
    return try decoded.get()
  }

  /// The scene `name`, or `SceneNotFound` as the call's error.
  private func scene(_ name: String) throws(CallError) -> SceneEngine {
    do {
      return try engine.scene(name)
    } catch {
      throw .rejected(error)
    }
  }

  private func getServerInfo(_ call: GetServerInfoCall, _ context: any CallContext) {
    let connections = context.serverStatistics.openConnections
    let engine = engine
    let startedAt = startedAt
    run {
      var subscribers = 0
      for name in engine.sceneNames {
        if let scene = try? engine.scene(name) { subscribers += await scene.subscriberTotal }
      }
      for scene in engine.waitedScenes { subscribers += await scene.subscriberTotal }
      let info = ServerInfo(
        version: NavdRelease.version, protocolVersion: NavProtocol.version, pid: Int(getpid()),
        uptimeSeconds: Engine.monotonicSeconds() - startedAt, scenes: engine.sceneNames.count,
        connections: connections, subscribers: subscribers)
      context.reply(info.parameters)
    }
  }

  /// Lists the scenes the peer may read (PROTOCOL.md § Access).
  private func listScenes(_ call: ListScenesCall, _ context: any CallContext) {
    let engine = engine
    let isReadable = readableScenes(context)
    run {
      var scenes: [SceneSummary] = []
      for name in engine.sceneNames where isReadable(name) {
        guard let scene = try? engine.scene(name) else { continue }
        let (version, subscribers) = await scene.summary
        scenes.append(SceneSummary(name: name, version: version, subscribers: subscribers))
      }
      context.reply(SceneList(scenes: scenes).parameters)
    }
  }

  private func getState(_ call: GetStateCall, _ context: any CallContext) throws(CallError) {
    try scene(call.scene).enter { scene in
      context.reply(StateReply(version: scene.version, epoch: scene.epoch, state: scene.state).parameters)
    }
  }

  private func getLayout(_ call: GetLayoutCall, _ context: any CallContext) throws(CallError) {
    let view = DocumentView.layout(call.metrics)
    try scene(call.scene).enter { scene in
      context.reply(
        LayoutReply(version: scene.version, epoch: scene.epoch, layout: view.document(of: scene.state)).parameters)
    }
  }

  private func mutate(_ prepared: PreparedMutate, _ context: any CallContext) {
    let call = prepared.call
    var request = MutationRequest(
      ops: call.ops, baseVersion: call.baseVersion, epoch: call.epoch, mutationId: call.mutationId,
      policy: ConflictPolicy(call.policy), client: call.clientId ?? Self.connectionClient(context.connectionID),
      uid: context.peer.uid)
    request.encodedOps = prepared.encodedOps
    // No task per call (`Engine.submit`): a pipelined burst read in one pass is one group.
    engine.submit(scene: call.scene, request, requester: requester(context)) { result in
      switch result {
      case .success(let outcome): context.reply(MutationReply(outcome))
      case .failure(let error): context.fail(error)
      }
    }
  }

  private func subscribe(_ call: SubscribeCall, more: Bool, _ context: any CallContext) throws(CallError) {
    // Without waitForScene an unknown scene is refused before anything else.
    let scene = call.waitForScene ? nil : try scene(call.scene)
    let view: DocumentView = call.view == .state ? .state : .layout(call.metrics)
    guard more else {
      context.fail(ExpectedMore())
      return
    }
    let subscriber = makeSubscriber(context)
    guard let scene else {
      let engine = engine
      let requester = requester(context)
      run {
        do throws(NavError) {
          try await engine.subscribe(
            waitingFor: call.scene, subscriber, view: view, sinceVersion: call.sinceVersion, epoch: call.epoch,
            requester: requester)
          self.streamUpdates(to: subscriber, scene: call.scene, context)
        } catch {
          context.fail(error)
        }
      }
      return
    }
    scene.enter { scene in
      do throws(NavError) {
        try scene.subscribe(subscriber, view: view, sinceVersion: call.sinceVersion, epoch: call.epoch)
        self.streamUpdates(to: subscriber, scene: call.scene, context)
      } catch {
        context.fail(error)
      }
    }
  }

  /// Hands a `Subscribe` call over to its subscriber's stream.
  private func streamUpdates(to subscriber: Subscriber, scene name: String, _ context: any CallContext) {
    let engine = engine
    let source = SubscriberSource(
      subscriber, resume: .fromDeliveredVersion { (try? engine.scene(name))?.epoch },
      wake: context.sourceHasDataSignal)
    sceneStreams.register(source)
    context.stream(from: source)
    streams.register(
      source, method: .subscribe, scene: name, peer: context.peer, policy: access.control.policy)
  }

  private func activate(_ call: ActivateCall, _ context: any CallContext) throws(CallError) {
    let scene = try scene(call.scene)
    let client = call.clientId ?? Self.connectionClient(context.connectionID)
    if call.item == ActivateCall.backButtonItem {
      scene.enter { scene in
        scene.activateBack(item: call.item, metrics: call.metrics, expectTop: call.expectTop, client: client) {
          switch $0 {
          case .success(let outcome):
            context.reply(ActivationResult(action: nil, watchers: 0, version: outcome.version).parameters)
          case .failure(let error): context.fail(error)
          }
        }
      }
      return
    }
    guard call.expectTop == nil else { throw .invalid("expectTop") }
    scene.enter { scene in
      do throws(NavError) {
        let (action, watchers) = try scene.activate(call.item, metrics: call.metrics)
        context.reply(ActivationResult(action: action, watchers: watchers).parameters)
      } catch {
        context.fail(error)
      }
    }
  }

  private func watchActions(_ call: WatchActionsCall, more: Bool, _ context: any CallContext) throws(CallError) {
    let scene = try scene(call.scene)
    guard more else {
      context.fail(ExpectedMore())
      return
    }
    let watcher = makeSubscriber(context)
    let streams = streams
    let access = access
    let sceneStreams = sceneStreams
    scene.enter { scene in
      do throws(NavError) {
        try scene.watchActions(watcher)
        let source = SubscriberSource(watcher, wake: context.sourceHasDataSignal)
        // On the scene's executor, in the turn that added the watcher: a deletion after it finds it.
        sceneStreams.register(source)
        context.stream(from: source)
        streams.register(
          source, method: .watchActions, scene: call.scene, peer: context.peer, policy: access.control.policy)
      } catch {
        context.fail(error)
      }
    }
  }

  /// Deletes a scene durably, then ends each of its streams with `SceneDeleted` after what
  /// it holds; the reply comes once that is done (PROTOCOL.md §3 DeleteScene).
  private func deleteScene(_ call: DeleteSceneCall, _ context: any CallContext) {
    let engine = engine
    let sceneStreams = sceneStreams
    run {
      switch await engine.deleteScene(call.scene, ifVersion: call.ifVersion) {
      case .success(let deletion):
        sceneStreams.end(deletion, scene: call.scene)
        context.reply(DeletedScene(version: deletion.version, epoch: deletion.epoch).parameters)
      case .failure(let error): context.fail(error)
      }
    }
  }

  /// Calls the access gate denied, by right (`GetStatistics`).
  var accessDenials: DenialCounts { access.denials }

  /// Whose scene quotas a call counts toward: its peer's uid, exempt when the policy
  /// trusts it (root, navd's own uid).
  func requester(_ context: any CallContext) -> SceneRequester {
    let uid = context.peer.uid
    return SceneRequester(uid: uid, exempt: access.control.policy.isTrusted(context.peer.accessPeer))
  }

  private func makeSubscriber(_ context: any CallContext) -> Subscriber {
    Subscriber(
      id: nextSubscriberID.wrappingAdd(1, ordering: .relaxed).oldValue,
      queueLimit: engine.configuration.subscriberQueueBytes,
      encoder: WireStreamEncoder(),
      wake: context.sourceHasDataSignal)
  }
}
