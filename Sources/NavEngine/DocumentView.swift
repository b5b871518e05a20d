import NavModel

/// Which document a subscriber follows: the raw state, or the layout resolved
/// with some metrics (SEMANTICS R7). Updates are encoded once per view.
public enum DocumentView: Sendable, Hashable, CustomStringConvertible {
  case state
  case layout(LayoutMetrics)

  /// The document this view shows of `state`.
  public func document(of state: SceneState) -> JSONValue {
    switch self {
    case .state: state.json
    case .layout(let metrics): LayoutResolver.resolve(state, metrics: metrics).json
    }
  }

  /// `state`, `layout`, `layout@375.0`, `layout@375.0,compact`, …
  public var description: String {
    switch self {
    case .state: "state"
    case .layout(let metrics):
      metrics.description.isEmpty
        ? "layout" : "layout\(metrics.description.hasPrefix("@") ? "" : ",")\(metrics.description)"
    }
  }
}

/// Subscribers that share a view of one scene, and that view's current document.
struct SubscriptionGroup: Sendable {
  var document: JSONValue
  var subscribers: [UInt64: Subscriber] = [:]
}
