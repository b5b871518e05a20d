import NavModel
import NavWire

/// One io.navd call navctl makes: the typed call (NavWire's), and whether it streams.
///
/// Two requests are equal when they send the same method with the same parameters.
public struct NavRequest: Sendable, Hashable {
  /// The typed call, which the executable sends through NavClient.
  public let call: any NavCall
  /// `"more": true`: the reply is a stream (the method's `descriptor.streams`).
  public let more: Bool

  /// The qualified method name, e.g. `io.navd.GetLayout`.
  public var method: String { type(of: call).method.qualifiedName }
  /// The call's parameters object.
  public var parameters: JSONValue { call.parameters }

  /// The request for a typed io.navd call (`more` for the methods that stream).
  public init(_ call: some NavCall) {
    self.call = call
    more = type(of: call).method.descriptor.streams
  }

  /// The request a call written as Varlink sends it stands for: the typed call its method's
  /// descriptor reads from `parameters`; nil for a method io.navd does not have, or parameters
  /// it refuses.
  public init?(method: String, parameters: JSONValue, more: Bool = false) {
    guard let name = method.split(separator: ".").last, method == "\(NavProtocol.interface).\(name)",
      let navMethod = NavMethod(rawValue: String(name)),
      let call = try? navMethod.descriptor.call.init(parameters: parameters)
    else { return nil }
    self.call = call
    self.more = more
  }

  /// The same method, parameters and `more`.
  public static func == (a: NavRequest, b: NavRequest) -> Bool {
    a.method == b.method && a.parameters == b.parameters && a.more == b.more
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(method)
    hasher.combine(parameters)
    hasher.combine(more)
  }
}

extension Invocation {
  /// Whether the executable must read the state (`GetState`) before it can send the request:
  /// mutation plans that read it, and `__ids`. A `SceneNotFound` reply then means the empty state.
  public var needsState: Bool {
    switch action {
    case .mutate(let plan): plan.needsState
    case .listIds: true
    default: false
    }
  }

  /// The `GetState` call that reads the snapshot a plan is built from.
  public var stateCall: GetStateCall { GetStateCall(scene: options.scene) }

  /// The call the action makes; nil for actions answered without navd (help, version, completion,
  /// and `__ids`, which is answered from the `stateCall` reply).
  ///
  /// `ops` are the ops of `mutate` (from `MutationPlan.ops(for:)`) or `apply` (from `ApplyDocument`);
  /// `terminalColumns` is the width `show` and `watch` draw at when no `--width` was given.
  /// A `CallCommand` makes its own call (its `CommandTable` row says which).
  ///
  /// A mutation carries `--mutation-id` (or `$NAVCTL_MUTATION_ID`) and then `clientId`: navd
  /// recognises a retry by the pair (CONFLICTS.md I1), so the executable passes one that stays the
  /// same from run to run (its user's).
  public func request(ops: [Op] = [], terminalColumns: Int = 80, clientId: String? = nil) -> NavRequest? {
    let scene = options.scene
    switch action {
    case .help, .version, .completion, .listIds, .exportState, .importState:
      return nil
    case .mutate, .apply:
      let base = options.ifVersion
      return NavRequest(
        MutateCall(
          scene: scene, ops: ops, baseVersion: base.flatMap { UInt64(exactly: $0) },
          mutationId: options.mutationId, clientId: options.mutationId == nil ? nil : clientId,
          policy: base == nil ? nil : .failOnConflict))
    case .call(let command):
      return command.request(scene, terminalColumns)
    case .deleteScene(let name):
      return NavRequest(DeleteSceneCall(scene: name, ifVersion: options.ifVersion.flatMap { UInt64(exactly: $0) }))
    case .watch(let columns, let waitForScene, _):
      let width = BarRenderer.layoutWidth(forColumns: columns ?? terminalColumns)
      return NavRequest(
        SubscribeCall(scene: scene, view: .layout, metrics: LayoutMetrics(width: width), waitForScene: waitForScene))
    case .watchActions:
      return NavRequest(WatchActionsCall(scene: scene))
    }
  }
}
