/// Writing ops in their wire form; `Op(json:path:)` reads them back unchanged.
extension Op {
  /// A list of ops in canonical wire form (`JSONWriter`: compact, keys sorted): what the op
  /// log stores and what the mutation-id digest is taken over (STORAGE.md §3).
  public static func encoded(_ ops: [Op]) -> [UInt8] { JSONWriter.bytes(.array(ops.map(\.json))) }

  /// The op as the wire writes it (`{"op": …}`), the inverse of `Op(json:)`.
  public var json: JSONValue {
    var m: [String: JSONValue] = ["op": .string(name)]
    func optional(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
    switch self {
    case .push(let item, let animated):
      m["item"] = item.json
      m["animated"] = .bool(animated)
    case .pop(let expectTop, let animated):
      if let expectTop { m["expectTop"] = .string(expectTop) }
      m["animated"] = .bool(animated)
    case .popTo(let id, let animated):
      m["item"] = .string(id)
      m["animated"] = .bool(animated)
    case .setStack(let items, let animated):
      m["items"] = .array(items.map(\.json))
      m["animated"] = .bool(animated)
    case .updateNavigationItem(let id, let fields, let animated):
      m["item"] = .string(id)
      m["set"] = .object(Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }))
      m["animated"] = .bool(animated)
    case .setBarButtonItems(let id, let side, let items, let animated):
      m["item"] = .string(id)
      m["side"] = .string(side.rawValue)
      m["items"] = .array(items.map { .string($0) })
      m["animated"] = .bool(animated)
    case .setBarButtonItem(let id, let side, let item, let animated):
      m["item"] = .string(id)
      m["side"] = .string(side.rawValue)
      m["barButtonItem"] = optional(item)
      m["animated"] = .bool(animated)
    case .insertBarButtonItem(let id, let side, let item, let before),
      .moveBarButtonItem(let id, let side, let item, let before):
      m["item"] = .string(id)
      m["side"] = .string(side.rawValue)
      m["barButtonItem"] = .string(item)
      if let before { m["before"] = .string(before) }
    case .removeBarButtonItem(let id, let side, let item):
      m["item"] = .string(id)
      m["side"] = .string(side.rawValue)
      m["barButtonItem"] = .string(item)
    case .defineBarButtonItem(let item):
      m["barButtonItem"] = item.json
    case .updateBarButtonItem(let id, let fields):
      m["barButtonItem"] = .string(id)
      m["set"] = .object(Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }))
    case .deleteBarButtonItem(let id), .removeToolbarItem(let id):
      m["barButtonItem"] = .string(id)
    case .setToolbarItems(let items, let animated):
      m["items"] = .array(items.map { .string($0) })
      m["animated"] = .bool(animated)
    case .insertToolbarItem(let id, let before), .moveToolbarItem(let id, let before):
      m["barButtonItem"] = .string(id)
      if let before { m["before"] = .string(before) }
    case .setBarHidden(let bar, let hidden, let animated):
      m["bar"] = .string(bar.rawValue)
      m["hidden"] = .bool(hidden)
      m["animated"] = .bool(animated)
    case .updateAppearance(let target, let fields):
      m["target"] = .string(target.rawValue)
      var set: [String: JSONValue] = [:]
      var backgrounds: [JSONValue] = []
      for field in fields {
        if case .backgroundImage(let image, let position, let metrics) = field {
          backgrounds.append([
            "position": .string(position.rawValue), "metrics": .string(metrics.rawValue), "image": image?.json ?? .null,
          ])
        } else {
          set[field.name] = field.value
        }
      }
      if !backgrounds.isEmpty { set["backgroundImages"] = .array(backgrounds) }
      m["set"] = .object(set)
    case .setSceneTint(let color), .setDefaultItemTint(let color):
      m["tintColor"] = color.map { .string($0.hex) } ?? .null
    }
    return .object(m)
  }
}

extension NavigationItemField {
  /// The value as written in a `set` object (null clears).
  public var value: JSONValue {
    switch self {
    case .title(let s), .prompt(let s), .backBarButtonItem(let s): s.map { .string($0) } ?? .null
    case .titleView(let view): view?.json ?? .null
    case .hidesBackButton(let b), .leftItemsSupplementBackButton(let b): .bool(b)
    }
  }
}

extension BarButtonItemField {
  /// The value as written in a `set` object (null clears).
  public var value: JSONValue {
    switch self {
    case .systemItem(let item): item.map { .string($0.rawValue) } ?? .null
    case .style(let style): .string(style.rawValue)
    case .title(let s), .action(let s): s.map { .string($0) } ?? .null
    case .image(let image): image?.json ?? .null
    case .width(let width): width.map { .number($0) } ?? .null
    case .possibleTitles(let titles): .array(titles.map { .string($0) })
    case .customView(let view): view?.json ?? .null
    case .enabled(let b): .bool(b)
    case .tag(let tag): .number(Double(tag))
    case .tintColor(let color): color.map { .string($0.hex) } ?? .null
    }
  }
}

extension AppearanceField {
  /// The value as written in a `set` object (null clears); background images are written as entries.
  public var value: JSONValue {
    switch self {
    case .barStyle(let style): style.map { .string($0.rawValue) } ?? .null
    case .tintColor(let c), .barTintColor(let c): c.map { .string($0.hex) } ?? .null
    case .translucent(let t): t.map { .bool($0) } ?? .null
    case .backgroundImage(let image, _, _), .shadowImage(let image): image?.json ?? .null
    case .titleTextAttributes(let attributes): attributes?.json ?? .null
    }
  }
}
