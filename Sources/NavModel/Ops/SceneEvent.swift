/// What a mutation did that a front end animates or a delegate would hear
/// (UINavigationBarDelegate's push/pop), carried with each update.
public enum SceneEvent: Sendable, Hashable {
  case pushed(item: String, animated: Bool)
  /// Items popped, top first.
  case popped(items: [String], animated: Bool)
  case stackSet(items: [String], animated: Bool)
  case barButtonItemsSet(navigationItem: String, side: BarSide, animated: Bool)
  case toolbarItemsSet(animated: Bool)
  case barHiddenChanged(Bar, hidden: Bool, animated: Bool)
  case hidesBackButtonChanged(navigationItem: String, hidden: Bool, animated: Bool)
  /// A front end activated an item (from `Activate`, never from a mutation).
  case activated(item: String, action: String?)

  /// The wire form: `{"event": "pushed", …}`.
  public var json: JSONValue {
    switch self {
    case .pushed(let item, let animated):
      ["event": "pushed", "item": .string(item), "animated": .bool(animated)]
    case .popped(let items, let animated):
      ["event": "popped", "items": .array(items.map { .string($0) }), "animated": .bool(animated)]
    case .stackSet(let items, let animated):
      ["event": "stackSet", "items": .array(items.map { .string($0) }), "animated": .bool(animated)]
    case .barButtonItemsSet(let navigationItem, let side, let animated):
      [
        "event": "barButtonItemsSet", "item": .string(navigationItem), "side": .string(side.rawValue),
        "animated": .bool(animated),
      ]
    case .toolbarItemsSet(let animated):
      ["event": "toolbarItemsSet", "animated": .bool(animated)]
    case .barHiddenChanged(let bar, let hidden, let animated):
      ["event": "barHiddenChanged", "bar": .string(bar.rawValue), "hidden": .bool(hidden), "animated": .bool(animated)]
    case .hidesBackButtonChanged(let navigationItem, let hidden, let animated):
      [
        "event": "hidesBackButtonChanged", "item": .string(navigationItem), "hidden": .bool(hidden),
        "animated": .bool(animated),
      ]
    case .activated(let item, let action):
      ["event": "activated", "item": .string(item), "action": action.map { .string($0) } ?? .null]
    }
  }

  /// Whether the front end should animate this change.
  public var animated: Bool {
    switch self {
    case .pushed(_, let a), .popped(_, let a), .stackSet(_, let a), .barButtonItemsSet(_, _, let a),
      .toolbarItemsSet(let a), .barHiddenChanged(_, _, let a), .hidesBackButtonChanged(_, _, let a):
      a
    case .activated: false
    }
  }
}
