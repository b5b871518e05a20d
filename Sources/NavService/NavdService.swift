import Glibc
import NavAccess
import NavEngine
import NavModel
import NavServer
import NavWire
import Synchronization

/// The io.navd interface: turns each call into engine work and its result into a reply.
///
/// `handle` runs on the event loop and returns at once; the work runs in a
/// Task on the scene's actor, which answers through the call's context.
public final class NavdService: CallHandler {
  public let engine: Engine
  let startedAt: Double
  /// Where each call's task runs: the server's event loop when set (no thread hop per call).
  private let executor: Mutex<(any TaskExecutor)?> = Mutex(nil)
  let nextSubscriberID = Atomic<UInt64>(1)
  private let connectionCounter: Mutex<(@Sendable () -> Int)?> = Mutex(nil)
  /// Who may do what (PROTOCOL.md § Access); checked before any engine work.
  private let access: AccessGate

  /// `access` defaults to navd's safe default: only this process's uid and root.
  public init(engine: Engine, access: AccessControl = AccessControl(ownerUID: getuid())) {
    self.engine = engine
    self.startedAt = Engine.monotonicSeconds()
    self.access = AccessGate(control: access)
  }

  /// Runs each call's task on `executor` (the server's `EventLoopExecutor`).
  public func setTaskExecutor(_ executor: any TaskExecutor) {
    self.executor.withLock { $0 = executor }
  }

  /// Starts a call's work on the preferred executor.
  private func run(_ work: sending @escaping @isolated(any) () async -> Void) {
    Task(executorPreference: executor.withLock { $0 }, operation: work)
  }

  /// Lets GetServerInfo report the server's open connections.
  public func setConnectionCounter(_ counter: @escaping @Sendable () -> Int) {
    connectionCounter.withLock { $0 = counter }
  }

  public func handle(_ call: VarlinkCall, context: any CallContext) {
    guard let method = NavMethod(rawValue: call.methodName) else {
      context.fail(VarlinkServiceNames.methodNotFound, ["method": .string(call.method)])
      return
    }
    guard let context = access.admit(method, call, context) else { return }
    do {
      switch method {
      case .getServerInfo: try getServerInfo(call, context)
      case .listScenes: try listScenes(call, context)
      case .getState: try getDocument(call, context, view: .state)
      case .getLayout: try getDocument(call, context, view: .layout(.defaults))
      case .subscribe: try subscribe(call, context)
      case .mutate: try mutate(call, context)
      case .activate: try activate(call, context)
      case .watchActions: try watchActions(call, context)
      }
    } catch let error as InvalidParameter {
      context.fail(VarlinkServiceNames.invalidParameter, ["parameter": .string(error.parameter)])
    } catch let error as NavError {
      context.fail(error.varlinkName, error.parameters)
    } catch {
      preconditionFailure("io.navd handlers throw only InvalidParameter or NavError, got \(error)")
    }
  }

  private func getServerInfo(_ call: VarlinkCall, _ context: any CallContext) throws {
    _ = try ParameterReader(call.parameters, known: [])
    let connections = connectionCounter.withLock { $0 }?() ?? 0
    let engine = engine
    let startedAt = startedAt
    run {
      var subscribers = 0
      for name in engine.sceneNames {
        if let scene = try? engine.scene(name) { subscribers += await scene.subscriberTotal }
      }
      context.reply([
        "version": .string(NavdRelease.version), "protocolVersion": .string(NavProtocol.version),
        "pid": .number(Double(getpid())), "uptimeSeconds": .number(Engine.monotonicSeconds() - startedAt),
        "scenes": .number(Double(engine.sceneNames.count)), "connections": .number(Double(connections)),
        "subscribers": .number(Double(subscribers)),
      ])
    }
  }

  private func listScenes(_ call: VarlinkCall, _ context: any CallContext) throws {
    _ = try ParameterReader(call.parameters, known: [])
    let engine = engine
    run {
      var scenes: [JSONValue] = []
      for name in engine.sceneNames {
        guard let scene = try? engine.scene(name) else { continue }
        let (version, subscribers) = await scene.summary
        scenes.append([
          "name": .string(name), "version": .number(Double(version)), "subscribers": .number(Double(subscribers)),
        ])
      }
      context.reply(["scenes": .array(scenes)])
    }
  }

  private func getDocument(_ call: VarlinkCall, _ context: any CallContext, view: DocumentView) throws {
    let isState = view == .state
    let reader = try ParameterReader(
      call.parameters, known: isState ? ["scene"] : ParameterReader.metricsParameters.union(["scene"]))
    let scene = try engine.scene(try reader.string("scene"))
    let documentView: DocumentView = isState ? .state : .layout(try reader.layoutMetrics())
    run {
      let (state, version) = await scene.snapshot()
      context.reply([
        "version": .number(Double(version)), "epoch": .string(scene.epoch),
        isState ? "state" : "layout": documentView.document(of: state),
      ])
    }
  }

  private func mutate(_ call: VarlinkCall, _ context: any CallContext) throws {
    let reader = try ParameterReader(
      call.parameters, known: ["scene", "ops", "baseVersion", "epoch", "mutationId", "clientId", "policy"])
    let sceneName = try reader.string("scene")
    let opsValue = try reader.required("ops")
    guard case .array = opsValue else { throw InvalidParameter(parameter: "ops") }
    let ops = try Op.list(json: opsValue)
    let clientId = try reader.optionalString("clientId")
    if let clientId { try Self.checkIdentifier(clientId, field: "clientId") }
    let request = MutationRequest(
      ops: ops, baseVersion: try reader.optionalVersion("baseVersion"), epoch: try reader.optionalString("epoch"),
      mutationId: try reader.optionalString("mutationId"),
      policy: try reader.optionalEnum("policy", ConflictPolicy.self) ?? .lastWriterWins,
      client: clientId ?? "connection:\(context.connectionID)")
    let engine = engine
    run {
      switch await engine.mutate(scene: sceneName, request) {
      case .success(let outcome): context.reply(outcome.json)
      case .failure(let error): context.fail(error.varlinkName, error.parameters)
      }
    }
  }

  private func subscribe(_ call: VarlinkCall, _ context: any CallContext) throws {
    let reader = try ParameterReader(
      call.parameters, known: ParameterReader.metricsParameters.union(["scene", "view", "sinceVersion", "epoch"]))
    let scene = try engine.scene(try reader.string("scene"))
    let metrics = try reader.layoutMetrics()
    let view: DocumentView
    switch try reader.optionalString("view") ?? "layout" {
    case "layout": view = .layout(metrics)
    case "state":
      if let misplaced = ParameterReader.metricsParameters.sorted().first(where: { call.parameters[$0] != nil }) {
        throw InvalidParameter(parameter: misplaced)
      }
      view = .state
    default: throw InvalidParameter(parameter: "view")
    }
    let sinceVersion = try reader.optionalVersion("sinceVersion")
    let epoch = try reader.optionalString("epoch")
    guard call.more else {
      context.fail(VarlinkServiceNames.expectedMore, [:])
      return
    }
    let subscriber = makeSubscriber(context)
    run {
      do throws(NavError) {
        try await scene.subscribe(subscriber, view: view, sinceVersion: sinceVersion, epoch: epoch)
        context.stream(from: SubscriberSource(subscriber))
      } catch {
        context.fail(error.varlinkName, error.parameters)
      }
    }
  }

  private func activate(_ call: VarlinkCall, _ context: any CallContext) throws {
    let reader = try ParameterReader(
      call.parameters, known: ParameterReader.metricsParameters.union(["scene", "item", "expectTop", "clientId"]))
    let scene = try engine.scene(try reader.string("scene"))
    let item = try reader.string("item")
    let metrics = try reader.layoutMetrics()
    let expectTop = try reader.optionalString("expectTop")
    let clientId = try reader.optionalString("clientId")
    if let clientId { try Self.checkIdentifier(clientId, field: "clientId") }
    let client = clientId ?? "connection:\(context.connectionID)"
    if item == SceneEngine.backButtonItem {
      run {
        switch await scene.activateBack(metrics: metrics, expectTop: expectTop, client: client) {
        case .success(let outcome):
          context.reply(["action": .null, "watchers": 0, "version": .number(Double(outcome.version))])
        case .failure(let error): context.fail(error.varlinkName, error.parameters)
        }
      }
      return
    }
    guard expectTop == nil else { throw InvalidParameter(parameter: "expectTop") }
    run {
      do throws(NavError) {
        let (action, watchers) = try await scene.activate(item, metrics: metrics)
        context.reply(["action": action.map { .string($0) } ?? .null, "watchers": .number(Double(watchers))])
      } catch {
        context.fail(error.varlinkName, error.parameters)
      }
    }
  }

  private func watchActions(_ call: VarlinkCall, _ context: any CallContext) throws {
    let reader = try ParameterReader(call.parameters, known: ["scene"])
    let scene = try engine.scene(try reader.string("scene"))
    guard call.more else {
      context.fail(VarlinkServiceNames.expectedMore, [:])
      return
    }
    let watcher = makeSubscriber(context)
    run {
      await scene.watchActions(watcher)
      context.stream(from: SubscriberSource(watcher))
    }
  }

  /// Client-chosen identifiers (`clientId`): 1…128 bytes.
  static func checkIdentifier(_ value: String, field: String) throws(NavError) {
    guard !value.isEmpty else { throw NavError(.invalidMutation, "\(field) must not be empty", field: field) }
    guard value.utf8.count <= 128 else {
      throw NavError(
        .limitExceeded, "\(field) is \(value.utf8.count) bytes; the limit is 128", field: field, value: value,
        limit: "\(field)Bytes", max: 128)
    }
  }

  private func makeSubscriber(_ context: any CallContext) -> Subscriber {
    Subscriber(
      id: nextSubscriberID.wrappingAdd(1, ordering: .relaxed).oldValue,
      queueLimit: engine.configuration.subscriberQueueBytes,
      frame: SubscriberSource.frame,
      wake: { context.sourceHasData() })
  }
}
