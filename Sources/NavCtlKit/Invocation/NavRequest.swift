import NavModel

/// One Varlink call navctl makes: the method, its parameters, and whether it streams.
public struct NavRequest: Sendable, Hashable {
  /// The qualified method name, e.g. `io.navd.GetLayout`.
  public var method: String
  /// The call's parameters object.
  public var parameters: JSONValue
  /// `"more": true`: the reply is a stream (Subscribe, WatchActions).
  public var more: Bool

  /// A call.
  public init(method: String, parameters: JSONValue, more: Bool = false) {
    self.method = method
    self.parameters = parameters
    self.more = more
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
  public var stateRequest: NavRequest {
    NavRequest(method: "io.navd.GetState", parameters: ["scene": .string(options.scene)])
  }

  /// The call the action makes; nil for actions answered without navd (help, version, completion,
  /// and `__ids`, which is answered from the `stateRequest` reply).
  ///
  /// `ops` are the ops of `mutate` (from `MutationPlan.ops(for:)`) or `apply` (from `ApplyDocument`);
  /// `terminalColumns` is the width `show` and `watch` draw at when no `--width` was given.
  public func request(ops: [Op] = [], terminalColumns: Int = 80) -> NavRequest? {
    let scene: JSONValue = .string(options.scene)
    switch action {
    case .help, .version, .completion, .listIds:
      return nil
    case .mutate, .apply:
      var parameters: [String: JSONValue] = ["scene": scene, "ops": .array(ops.map(\.json))]
      if let base = options.ifVersion {
        parameters["baseVersion"] = .number(Double(base))
        parameters["policy"] = "failOnConflict"
      }
      return NavRequest(method: "io.navd.Mutate", parameters: .object(parameters))
    case .getState:
      return stateRequest
    case .getLayout(let width):
      var parameters: [String: JSONValue] = ["scene": scene]
      if let width { parameters["width"] = .number(width) }
      return NavRequest(method: "io.navd.GetLayout", parameters: .object(parameters))
    case .show(let columns):
      let width = BarRenderer.layoutWidth(forColumns: columns ?? terminalColumns)
      return NavRequest(method: "io.navd.GetLayout", parameters: ["scene": scene, "width": .number(width)])
    case .watch(let columns):
      let width = BarRenderer.layoutWidth(forColumns: columns ?? terminalColumns)
      return NavRequest(
        method: "io.navd.Subscribe", parameters: ["scene": scene, "view": "layout", "width": .number(width)], more: true
      )
    case .activate(let item, let width):
      var parameters: [String: JSONValue] = ["scene": scene, "item": .string(item)]
      if let width { parameters["width"] = .number(width) }
      return NavRequest(method: "io.navd.Activate", parameters: .object(parameters))
    case .watchActions:
      return NavRequest(method: "io.navd.WatchActions", parameters: ["scene": scene], more: true)
    case .listScenes:
      return NavRequest(method: "io.navd.ListScenes", parameters: [:])
    case .serverInfo:
      return NavRequest(method: "io.navd.GetServerInfo", parameters: [:])
    }
  }
}
