/// What a mutation or an activation did that a front end animates or a
/// delegate would hear (UINavigationBarDelegate's push/pop), carried with
/// each update (SEMANTICS R61).
public enum SceneEvent: Sendable, Hashable {
  case push(item: String, animated: Bool)
  /// Items popped, top first.
  case pop(items: [String], animated: Bool)
  case setStack(transition: StackTransition, animated: Bool)
  /// A front end activated an item (from `Activate`, never from a mutation).
  case activate(item: String, action: String?, tag: Int)

  /// The wire form: `{"type": "push", …}`.
  public var json: JSONValue {
    switch self {
    case .push(let item, let animated):
      ["type": "push", "item": .string(item), "animated": .bool(animated)]
    case .pop(let items, let animated):
      ["type": "pop", "items": .array(items.map { .string($0) }), "animated": .bool(animated)]
    case .setStack(let transition, let animated):
      ["type": "setStack", "transition": .string(transition.rawValue), "animated": .bool(animated)]
    case .activate(let item, let action, let tag):
      [
        "type": "activate", "item": .string(item), "action": action.map { .string($0) } ?? .null,
        "tag": .number(Double(tag)),
      ]
    }
  }
}

/// How a front end should animate a `setStack` (SEMANTICS R12).
public enum StackTransition: String, Sendable, Hashable {
  case push, pop, none

  /// `none` when the top keeps its id (or both stacks are empty); `pop` when the
  /// new stack is empty or its top was below the old top; `push` otherwise.
  public init(from old: [String], to new: [String]) {
    if old.last == new.last {
      self = .none
    } else if let newTop = new.last, !old.dropLast().contains(newTop) {
      self = .push
    } else {
      self = .pop
    }
  }
}

extension Op {
  /// The op's `animated` flag; false for ops that have none (SEMANTICS R14).
  public var animated: Bool {
    switch self {
    case .push(_, let a), .pop(_, let a), .popTo(_, let a), .setStack(_, let a), .updateNavigationItem(_, _, let a),
      .setBarButtonItems(_, _, _, let a), .setBarButtonItem(_, _, _, let a), .setToolbarItems(_, let a),
      .setBarHidden(_, _, let a):
      a
    default: false
    }
  }
}
