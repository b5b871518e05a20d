/// Writing ops in their wire form; `Op(json:path:)` reads them back unchanged.
extension Op {
  /// A list of ops in canonical wire form (compact, keys sorted): what the op log stores and
  /// what the mutation-id digest is taken over (STORAGE.md §3). Every op kind is written
  /// straight into bytes by `SortedJSONWriter`; the bytes are those of
  /// `JSONWriter.bytes(.array(ops.map(\.json)))` (a seeded test compares the two).
  public static func encoded(_ ops: [Op]) -> [UInt8] {
    SortedJSONWriter.bytes { w in
      w.beginArray()
      for op in ops { op.write(to: &w) }
      w.endArray()
    }
  }

  /// Writes the op as `json` is written, its members in key order.
  func write(to w: inout SortedJSONWriter) {
    w.beginObject()
    switch self {
    case .push(let item, let animated):
      w.animated(animated)
      w.key(#""item":"#)
      item.write(to: &w)
      w.op(name)
    case .pop(let expectTop, let animated):
      w.animated(animated)
      w.memberIfSet(#""expectTop":"#, expectTop)
      w.op(name)
    case .popTo(let id, let animated):
      w.animated(animated)
      w.member(#""item":"#, id)
      w.op(name)
    case .setStack(let items, let animated):
      w.animated(animated)
      w.key(#""items":"#)
      w.beginArray()
      for item in items { item.write(to: &w) }
      w.endArray()
      w.op(name)
    case .updateNavigationItem(let id, let fields, let animated):
      w.animated(animated)
      w.member(#""item":"#, id)
      w.op(name)
      w.key(#""set":"#)
      Self.writeSet(fields, to: &w)
    case .setBarButtonItems(let id, let side, let items, let animated):
      w.animated(animated)
      w.member(#""item":"#, id)
      w.key(#""items":"#)
      w.strings(items)
      w.op(name)
      w.side(side)
    case .setBarButtonItem(let id, let side, let item, let animated):
      w.animated(animated)
      w.member(#""barButtonItem":"#, item)
      w.member(#""item":"#, id)
      w.op(name)
      w.side(side)
    case .insertBarButtonItem(let id, let side, let item, let before),
      .moveBarButtonItem(let id, let side, let item, let before):
      w.member(#""barButtonItem":"#, item)
      w.before(before)
      w.member(#""item":"#, id)
      w.op(name)
      w.side(side)
    case .removeBarButtonItem(let id, let side, let item):
      w.member(#""barButtonItem":"#, item)
      w.member(#""item":"#, id)
      w.op(name)
      w.side(side)
    case .defineBarButtonItem(let item):
      w.key(#""barButtonItem":"#)
      item.write(to: &w)
      w.op(name)
    case .updateBarButtonItem(let id, let fields):
      w.member(#""barButtonItem":"#, id)
      w.op(name)
      w.key(#""set":"#)
      Self.writeSet(fields, to: &w)
    case .deleteBarButtonItem(let id), .removeToolbarItem(let id):
      w.member(#""barButtonItem":"#, id)
      w.op(name)
    case .setToolbarItems(let items, let animated):
      w.animated(animated)
      w.key(#""items":"#)
      w.strings(items)
      w.op(name)
    case .insertToolbarItem(let id, let before), .moveToolbarItem(let id, let before):
      w.member(#""barButtonItem":"#, id)
      w.before(before)
      w.op(name)
    case .setBarHidden(let bar, let hidden, let animated):
      w.animated(animated)
      w.member(#""bar":"#, bar.rawValue)
      w.member(#""hidden":"#, hidden)
      w.op(name)
    case .updateAppearance(let target, let fields):
      w.op(name)
      w.key(#""set":"#)
      Self.writeAppearanceSet(fields, to: &w)
      w.member(#""target":"#, target.rawValue)
    case .setSceneTint(let color), .setDefaultItemTint(let color):
      w.op(name)
      w.key(#""tintColor":"#)
      w.color(color)
    }
    w.endObject()
  }

  /// A `set` object as the reference's dictionary writes it: keys in order, the last value
  /// given for a field wins, whatever order the fields came in.
  private static func writeSet<Field: SetField>(_ fields: [Field], to w: inout SortedJSONWriter) {
    w.beginObject()
    if zip(fields, fields.dropFirst()).allSatisfy({ $0.keyRank < $1.keyRank }) {
      // In key order and each once, as the decoder makes them: written as they are.
      for field in fields { field.writeMember(to: &w) }
    } else {
      for rank in 0..<Field.keyCount {
        fields.last { $0.keyRank == rank }?.writeMember(to: &w)
      }
    }
    w.endObject()
  }

  /// An appearance's `set` object: its fields as `writeSet` writes them, and every background
  /// image given, in order, as the entries of `backgroundImages` (the first key in order).
  private static func writeAppearanceSet(_ fields: [AppearanceField], to w: inout SortedJSONWriter) {
    w.beginObject()
    if fields.contains(where: { $0.keyRank == 0 }) {
      w.key(#""backgroundImages":"#)
      w.beginArray()
      for case .backgroundImage(let image, let position, let metrics) in fields {
        w.beginObject()
        w.key(#""image":"#)
        w.image(image)
        w.member(#""metrics":"#, metrics.rawValue)
        w.member(#""position":"#, position.rawValue)
        w.endObject()
      }
      w.endArray()
    }
    for rank in 1..<AppearanceField.keyCount {
      fields.last { $0.keyRank == rank }?.writeMember(to: &w)
    }
    w.endObject()
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

extension SortedJSONWriter {
  /// The members every op kind shares, under their literal keys.
  fileprivate mutating func animated(_ animated: Bool) {
    key(#""animated":"#)
    bool(animated)
  }

  fileprivate mutating func op(_ name: String) {
    key(#""op":"#)
    string(name)
  }

  fileprivate mutating func side(_ side: BarSide) {
    key(#""side":"#)
    string(side.rawValue)
  }

  /// `before`, omitted when there is none.
  fileprivate mutating func before(_ before: String?) {
    guard let before else { return }
    key(#""before":"#)
    string(before)
  }
}
