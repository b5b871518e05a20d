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

/// Subscribers that share a view of one scene, and that view's current
/// document: each version is resolved, diffed and encoded once per group.
struct SubscriptionGroup: Sendable {
  var current: VersionedDocument
  var subscribers: [UInt64: Subscriber] = [:]
  /// The snapshot frame of `current` (framed) and the size of its encoded
  /// parameters, encoded by the first subscriber that needs it and shared by
  /// the others until the next version.
  var snapshot: (frame: [UInt8], documentBytes: Int)?
  /// The size of the view's encoded document when a snapshot was last made:
  /// what one of its documents costs, to bound commit groups (`SceneEngine.groupCapacity`).
  var documentBytes = 0

  init(version: UInt64, document: JSONValue) {
    current = VersionedDocument(version: version, document: document)
  }
}
