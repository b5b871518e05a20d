/// The wire form of ops: `{"op": "<name>", …}` (Protocol/PROTOCOL.md, "Ops").
///
/// Decoding checks shape and types and names the exact field on error; the
/// rules (ids exist, limits) are checked when the op is applied.
extension Op {
  /// The op's name on the wire.
  public var name: String {
    switch self {
    case .push: "push"
    case .pop: "pop"
    case .popTo: "popTo"
    case .setStack: "setStack"
    case .updateNavigationItem: "updateNavigationItem"
    case .setBarButtonItems: "setBarButtonItems"
    case .setBarButtonItem: "setBarButtonItem"
    case .insertBarButtonItem: "insertBarButtonItem"
    case .removeBarButtonItem: "removeBarButtonItem"
    case .moveBarButtonItem: "moveBarButtonItem"
    case .defineBarButtonItem: "defineBarButtonItem"
    case .updateBarButtonItem: "updateBarButtonItem"
    case .deleteBarButtonItem: "deleteBarButtonItem"
    case .setToolbarItems: "setToolbarItems"
    case .insertToolbarItem: "insertToolbarItem"
    case .removeToolbarItem: "removeToolbarItem"
    case .moveToolbarItem: "moveToolbarItem"
    case .setBarHidden: "setBarHidden"
    case .updateAppearance: "updateAppearance"
    case .setSceneTint: "setSceneTint"
    case .setDefaultItemTint: "setDefaultItemTint"
    }
  }

  /// Every op name, for error messages and completion.
  public static let names: [String] = [
    "push", "pop", "popTo", "setStack", "updateNavigationItem", "setBarButtonItems", "setBarButtonItem",
    "insertBarButtonItem", "removeBarButtonItem", "moveBarButtonItem", "defineBarButtonItem", "updateBarButtonItem",
    "deleteBarButtonItem", "setToolbarItems", "insertToolbarItem", "removeToolbarItem", "moveToolbarItem",
    "setBarHidden", "updateAppearance", "setSceneTint", "setDefaultItemTint",
  ]

  /// Reads one op; `path` is where it sits in the request (`ops[3]`).
  public init(json: JSONValue, path: String) throws(NavError) {
    let r = try FieldReader(json, path: path)
    let name = try r.string("op")
    func known(_ keys: [String]) throws(NavError) {
      guard r.members.keys.contains(where: { $0 != "op" && !keys.contains($0) }) else { return }
      try r.rejectUnknown(keys + ["op"])
    }
    switch name {
    case "push":
      try known(["item", "animated"])
      self = .push(
        try NavigationItem(json: try r.required("item"), path: r.fieldPath("item")),
        animated: try r.bool("animated", default: false))
    case "pop":
      try known(["expectTop", "animated"])
      self = .pop(expectTop: try r.optionalString("expectTop"), animated: try r.bool("animated", default: false))
    case "popTo":
      try known(["item", "animated"])
      self = .popTo(try r.string("item"), animated: try r.bool("animated", default: false))
    case "setStack":
      try known(["items", "animated"])
      var items: [NavigationItem] = []
      for (i, item) in try r.array("items").enumerated() {
        items.append(try NavigationItem(json: item, path: "\(r.fieldPath("items"))[\(i)]"))
      }
      self = .setStack(items, animated: try r.bool("animated", default: false))
    case "updateNavigationItem":
      try known(["item", "set", "animated"])
      self = .updateNavigationItem(
        try r.string("item"), try Self.navigationItemFields(try r.object("set")),
        animated: try r.bool("animated", default: false))
    case "setBarButtonItems":
      try known(["item", "side", "items", "animated"])
      self = .setBarButtonItems(
        navigationItem: try r.string("item"), side: try r.enumeration("side", BarSide.self),
        items: try r.strings("items", optional: false), animated: try r.bool("animated", default: false))
    case "setBarButtonItem":
      try known(["item", "side", "barButtonItem", "animated"])
      self = .setBarButtonItem(
        navigationItem: try r.string("item"), side: try r.enumeration("side", BarSide.self),
        item: try r.optionalString("barButtonItem"), animated: try r.bool("animated", default: false))
    case "insertBarButtonItem":
      try known(["item", "side", "barButtonItem", "before"])
      self = .insertBarButtonItem(
        navigationItem: try r.string("item"), side: try r.enumeration("side", BarSide.self),
        item: try r.string("barButtonItem"), before: try r.optionalString("before"))
    case "removeBarButtonItem":
      try known(["item", "side", "barButtonItem"])
      self = .removeBarButtonItem(
        navigationItem: try r.string("item"), side: try r.enumeration("side", BarSide.self),
        item: try r.string("barButtonItem"))
    case "moveBarButtonItem":
      try known(["item", "side", "barButtonItem", "before"])
      self = .moveBarButtonItem(
        navigationItem: try r.string("item"), side: try r.enumeration("side", BarSide.self),
        item: try r.string("barButtonItem"), before: try r.optionalString("before"))
    case "defineBarButtonItem":
      try known(["barButtonItem"])
      self = .defineBarButtonItem(
        try BarButtonItem(json: try r.required("barButtonItem"), path: r.fieldPath("barButtonItem")))
    case "updateBarButtonItem":
      try known(["barButtonItem", "set"])
      self = .updateBarButtonItem(try r.string("barButtonItem"), try Self.barButtonItemFields(try r.object("set")))
    case "deleteBarButtonItem":
      try known(["barButtonItem"])
      self = .deleteBarButtonItem(try r.string("barButtonItem"))
    case "setToolbarItems":
      try known(["items", "animated"])
      self = .setToolbarItems(try r.strings("items", optional: false), animated: try r.bool("animated", default: false))
    case "insertToolbarItem":
      try known(["barButtonItem", "before"])
      self = .insertToolbarItem(try r.string("barButtonItem"), before: try r.optionalString("before"))
    case "removeToolbarItem":
      try known(["barButtonItem"])
      self = .removeToolbarItem(try r.string("barButtonItem"))
    case "moveToolbarItem":
      try known(["barButtonItem", "before"])
      self = .moveToolbarItem(try r.string("barButtonItem"), before: try r.optionalString("before"))
    case "setBarHidden":
      try known(["bar", "hidden", "animated"])
      self = .setBarHidden(
        try r.enumeration("bar", Bar.self), hidden: try r.requiredBool("hidden"),
        animated: try r.bool("animated", default: false))
    case "updateAppearance":
      try known(["target", "set"])
      self = .updateAppearance(
        try r.enumeration("target", AppearanceTarget.self), try Self.appearanceFields(try r.object("set")))
    case "setSceneTint":
      try known(["tintColor"])
      self = .setSceneTint(try r.optionalColor("tintColor"))
    case "setDefaultItemTint":
      try known(["tintColor"])
      self = .setDefaultItemTint(try r.optionalColor("tintColor"))
    default:
      throw NavError(
        .invalidMutation, "unknown op \"\(name)\"; expected one of: \(Op.names.joined(separator: ", "))",
        field: r.fieldPath("op"), value: name)
    }
  }

  /// Reads a list of ops (`ops` of a Mutate call).
  public static func list(json: JSONValue, path: String = "ops") throws(NavError) -> [Op] {
    guard case .array(let elements) = json else {
      throw NavError(.invalidMutation, "\(path) must be an array of ops, got \(json.typeName)", field: path)
    }
    var ops: [Op] = []
    ops.reserveCapacity(elements.count)
    for (i, element) in elements.enumerated() {
      do {
        ops.append(try Op(json: element, path: "\(path)[\(i)]"))
      } catch {
        var error = error
        error.opIndex = i
        throw error
      }
    }
    return ops
  }

  static func nonNull(_ r: FieldReader, _ key: String) throws(NavError) {
    if r.members[key]?.isNull == true {
      throw NavError(.invalidMutation, "\(r.fieldPath(key)) cannot be null", field: r.fieldPath(key))
    }
  }

  /// What `updateNavigationItem`'s `set` accepts: an item's fields but its identity and bar button items.
  static let settableNavigationItemFields = NavigationItem.fieldNames.subtracting([
    "id", "leftBarButtonItems", "rightBarButtonItems",
  ])
  /// What `updateBarButtonItem`'s `set` accepts: every field but the identity.
  static let settableBarButtonItemFields = BarButtonItem.fieldNames.subtracting(["id"])

  static func navigationItemFields(_ r: FieldReader) throws(NavError) -> [NavigationItemField] {
    try r.rejectUnknown(settableNavigationItemFields)
    var fields: [NavigationItemField] = []
    for key in r.members.keys.sorted() {
      switch key {
      case "title": fields.append(.title(try r.optionalString(key)))
      case "prompt": fields.append(.prompt(try r.optionalString(key)))
      case "titleView": fields.append(.titleView(try r.optionalCustomView(key)))
      case "backBarButtonItem": fields.append(.backBarButtonItem(try r.optionalString(key)))
      case "hidesBackButton": fields.append(.hidesBackButton(try r.requiredBool(key)))
      default: fields.append(.leftItemsSupplementBackButton(try r.requiredBool(key)))
      }
    }
    return fields
  }

  static func barButtonItemFields(_ r: FieldReader) throws(NavError) -> [BarButtonItemField] {
    try r.rejectUnknown(settableBarButtonItemFields)
    var fields: [BarButtonItemField] = []
    for key in r.members.keys.sorted() {
      switch key {
      case "systemItem": fields.append(.systemItem(try r.optionalEnumeration(key, SystemItem.self)))
      case "style":
        try nonNull(r, key)
        fields.append(.style(try r.enumeration(key, ItemStyle.self)))
      case "title": fields.append(.title(try r.optionalString(key)))
      case "image": fields.append(.image(try r.optionalImage(key)))
      case "width": fields.append(.width(try r.optionalNumber(key)))
      case "possibleTitles": fields.append(.possibleTitles(try r.strings(key)))
      case "customView": fields.append(.customView(try r.optionalCustomView(key)))
      case "enabled": fields.append(.enabled(try r.requiredBool(key)))
      case "tag":
        try nonNull(r, key)
        fields.append(.tag(try r.integer(key, default: 0)))
      case "tintColor": fields.append(.tintColor(try r.optionalColor(key)))
      default: fields.append(.action(try r.optionalString(key)))
      }
    }
    return fields
  }

  static func appearanceFields(_ r: FieldReader) throws(NavError) -> [AppearanceField] {
    try r.rejectUnknown([
      "barStyle", "tintColor", "barTintColor", "translucent", "backgroundImages", "shadowImage", "titleTextAttributes",
    ])
    var fields: [AppearanceField] = []
    for key in r.members.keys.sorted() {
      switch key {
      case "barStyle": fields.append(.barStyle(try r.optionalEnumeration(key, BarStyle.self)))
      case "tintColor": fields.append(.tintColor(try r.optionalColor(key)))
      case "barTintColor": fields.append(.barTintColor(try r.optionalColor(key)))
      case "translucent": fields.append(.translucent(try r.optionalBool(key)))
      case "shadowImage": fields.append(.shadowImage(try r.optionalImage(key)))
      case "titleTextAttributes":
        fields.append(
          .titleTextAttributes(
            try r.optionalObject(key).map { o throws(NavError) in
              try TitleTextAttributes(json: .object(o.members), path: o.path)
            }))
      default:
        for (i, entry) in try r.array(key).enumerated() {
          let e = try FieldReader(entry, path: "\(r.fieldPath(key))[\(i)]")
          try e.rejectUnknown(["position", "metrics", "image"])
          fields.append(
            .backgroundImage(
              try e.optionalImage("image"), position: try e.enumeration("position", BarPosition.self),
              metrics: try e.enumeration("metrics", BarMetrics.self)))
        }
      }
    }
    return fields
  }
}
