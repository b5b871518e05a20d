/// Writing ops in their wire form; `Op(json:path:)` reads them back unchanged.
extension Op {
  /// A list of ops in canonical wire form (`JSONWriter`: compact, keys sorted): what the op
  /// log stores and what the mutation-id digest is taken over (STORAGE.md §3).
  ///
  /// Each op is written from `members`, already in key order, so no dictionary is built and
  /// nothing is sorted; the bytes are those of `JSONWriter.bytes(.array(ops.map(\.json)))`
  /// (a seeded test compares the two).
  public static func encoded(_ ops: [Op]) -> [UInt8] {
    var out: [UInt8] = []
    // Room for a title change with a title of ~200 bytes without growing the array.
    out.reserveCapacity(256 * ops.count)
    out.append(UInt8(ascii: "["))
    for (i, op) in ops.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      op.encode(into: &out)
    }
    out.append(UInt8(ascii: "]"))
    return out
  }

  /// Appends the op as `JSONWriter.write(sortedMembers: members)` does. A title change,
  /// the op clients send most, is written directly when its fields are in name order (as
  /// the decoder makes them): no members array, no `set` dictionary to sort.
  func encode(into out: inout [UInt8]) {
    guard case .updateNavigationItem(let id, let fields, let animated) = self,
      zip(fields, fields.dropFirst()).allSatisfy({ $0.name < $1.name })
    else {
      JSONWriter.write(sortedMembers: members, into: &out)
      return
    }
    out.append(literal: animated ? #"{"animated":true,"item":"# : #"{"animated":false,"item":"#)
    JSONWriter.writeString(id, into: &out)
    out.append(literal: #","op":"updateNavigationItem","set":{"#)
    for (i, field) in fields.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      if case .title(let title?) = field {
        // The name as a literal, the title as `write(field.value)` writes it, without the JSONValue.
        out.append(literal: #""title":"#)
        JSONWriter.writeString(title, into: &out)
      } else {
        JSONWriter.writeString(field.name, into: &out)
        out.append(UInt8(ascii: ":"))
        JSONWriter.write(field.value, into: &out)
      }
    }
    out.append(literal: "}}")
  }

  /// The op as the wire writes it (`{"op": …}`), the inverse of `Op(json:)`.
  public var json: JSONValue { .object(Dictionary(uniqueKeysWithValues: members)) }

  /// The op's wire members, in key order (the order `JSONWriter` writes an object's keys).
  var members: [(key: String, value: JSONValue)] {
    let op = ("op", JSONValue.string(name))
    func optional(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
    switch self {
    case .push(let item, let animated):
      return [("animated", .bool(animated)), ("item", item.json), op]
    case .pop(let expectTop, let animated):
      return [("animated", .bool(animated))] + (expectTop.map { [("expectTop", .string($0))] } ?? []) + [op]
    case .popTo(let id, let animated):
      return [("animated", .bool(animated)), ("item", .string(id)), op]
    case .setStack(let items, let animated):
      return [("animated", .bool(animated)), ("items", .array(items.map(\.json))), op]
    case .updateNavigationItem(let id, let fields, let animated):
      return [
        ("animated", .bool(animated)), ("item", .string(id)), op, ("set", Self.set(fields.map { ($0.name, $0.value) })),
      ]
    case .setBarButtonItems(let id, let side, let items, let animated):
      return [
        ("animated", .bool(animated)), ("item", .string(id)), ("items", .array(items.map { .string($0) })), op,
        ("side", .string(side.rawValue)),
      ]
    case .setBarButtonItem(let id, let side, let item, let animated):
      return [
        ("animated", .bool(animated)), ("barButtonItem", optional(item)), ("item", .string(id)), op,
        ("side", .string(side.rawValue)),
      ]
    case .insertBarButtonItem(let id, let side, let item, let before),
      .moveBarButtonItem(let id, let side, let item, let before):
      return [("barButtonItem", .string(item))] + (before.map { [("before", .string($0))] } ?? [])
        + [("item", .string(id)), op, ("side", .string(side.rawValue))]
    case .removeBarButtonItem(let id, let side, let item):
      return [("barButtonItem", .string(item)), ("item", .string(id)), op, ("side", .string(side.rawValue))]
    case .defineBarButtonItem(let item):
      return [("barButtonItem", item.json), op]
    case .updateBarButtonItem(let id, let fields):
      return [("barButtonItem", .string(id)), op, ("set", Self.set(fields.map { ($0.name, $0.value) }))]
    case .deleteBarButtonItem(let id), .removeToolbarItem(let id):
      return [("barButtonItem", .string(id)), op]
    case .setToolbarItems(let items, let animated):
      return [("animated", .bool(animated)), ("items", .array(items.map { .string($0) })), op]
    case .insertToolbarItem(let id, let before), .moveToolbarItem(let id, let before):
      return [("barButtonItem", .string(id))] + (before.map { [("before", .string($0))] } ?? []) + [op]
    case .setBarHidden(let bar, let hidden, let animated):
      return [("animated", .bool(animated)), ("bar", .string(bar.rawValue)), ("hidden", .bool(hidden)), op]
    case .updateAppearance(let target, let fields):
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
      return [op, ("set", .object(set)), ("target", .string(target.rawValue))]
    case .setSceneTint(let color), .setDefaultItemTint(let color):
      return [op, ("tintColor", color.map { .string($0.hex) } ?? .null)]
    }
  }

  /// A `set` object: the last value given for a field wins.
  private static func set(_ fields: [(String, JSONValue)]) -> JSONValue {
    .object(Dictionary(fields, uniquingKeysWith: { _, last in last }))
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
