import NavModel

/// Which document a subscriber follows: the raw state, or the resolved layout
/// (optionally at a bar width). Updates are encoded once per view.
public enum DocumentView: Sendable, Hashable, CustomStringConvertible {
  case state
  case layout(width: Double?)

  /// The document this view shows of `state`.
  public func document(of state: SceneState) -> JSONValue {
    switch self {
    case .state: state.json
    case .layout(let width): LayoutResolver.resolve(state, metrics: width.map { LayoutMetrics(width: $0) }).json
    }
  }

  public var description: String {
    switch self {
    case .state: "state"
    case .layout(nil): "layout"
    case .layout(let width?): "layout@\(width)"
    }
  }
}

/// Subscribers that share a view of one scene, and that view's current document.
struct SubscriptionGroup: Sendable {
  var document: JSONValue
  var subscribers: [UInt64: Subscriber] = [:]
}
