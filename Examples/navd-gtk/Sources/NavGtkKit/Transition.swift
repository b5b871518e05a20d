import NavModel

/// How the navigation bar changes from one drawing to the next.
public enum Transition: Sendable, Equatable {
  /// Replaced at once (not animated, or a snapshot).
  case none
  /// A push: the new bar slides in from the right.
  case slideLeft
  /// A pop: the new bar slides in from the left.
  case slideRight
  /// Animated, but neither push nor pop: a short cross-fade.
  case crossfade

  /// The transition for an update with `events` (SEMANTICS R61) and `animated` (R14).
  ///
  /// The last push, pop or stack replacement of the update decides the direction; a
  /// `setStack` says its own (`transition`). An update that is not animated never slides.
  public init(events: [JSONValue], animated: Bool) {
    var direction: Transition? = nil
    for event in events {
      switch event["type"]?.stringValue {
      case "push": direction = .slideLeft
      case "pop": direction = .slideRight
      case "setStack":
        switch event["transition"]?.stringValue {
        case "push": direction = .slideLeft
        case "pop": direction = .slideRight
        default: direction = .crossfade
        }
      default: break
      }
    }
    guard animated else {
      self = .none
      return
    }
    self = direction ?? .crossfade
  }
}
