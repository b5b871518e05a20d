import NavModel
import NavTestSupport

/// Random navd-shaped state documents and the edits navd makes to them (push, pop, retitle,
/// bar button and toolbar changes), for the patch property test and vectors.
///
/// Built as plain `JSONValue` in the shape of `SceneState.json` rather than through the model
/// types, so the patch tests stay independent of the model while it changes.
struct NavDocuments {
  var rng: SplitMix64

  static let systemItems = [
    "done", "cancel", "edit", "save", "add", "flexibleSpace", "fixedSpace", "compose", "reply", "search", "refresh",
    "trash",
  ]
  static let titles = [
    "Inbox", "Mail", "Settings", "Drafts", "Archive", "Détails", "Profil 😀", "Back", "Edit", "Ünread",
  ]
  static let screens = ["root", "inbox", "thread", "message", "settings", "account", "drafts", "compose", "search"]
  static let colors = ["#007aff", "#ff3b30", "#34c759", "#000000", "#ffffff80"]

  /// Names of the edits `edit(_:)` can make; the vector names use them.
  static let editKinds = [
    "push", "pushSharingItems", "pop", "popToRoot", "setItems", "retitle", "setPrompt", "clearPrompt",
    "reorderRightItems", "setLeftItem", "removeRightItem", "hideBackButton", "toolbarInsert", "toolbarRemove",
    "toolbarReorder", "toolbarHidden", "sceneTint", "barTint", "buttonRetitle", "buttonDisable", "buttonAdd",
    "buttonRemoveUnused", "titleView", "backgroundImage",
  ]

  init(seed: UInt64) {
    rng = SplitMix64(seed: seed)
  }

  mutating func buttonIds(_ document: JSONValue) -> [String] {
    (document["barButtonItems"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
  }

  mutating func button(_ id: String) -> JSONValue {
    var members: [String: JSONValue] = [
      "id": .string(id), "style": .string(rng.pick(["plain", "done"])), "enabled": .bool(!rng.chance(15)),
      "tag": .number(Double(rng.below(4))), "possibleTitles": .array([]),
    ]
    if rng.chance(50) {
      members["systemItem"] = .string(rng.pick(Self.systemItems))
    } else {
      members["title"] = .string(rng.pick(Self.titles))
      if rng.chance(30) { members["possibleTitles"] = .array([.string("Edit"), .string("Done")]) }
    }
    if rng.chance(30) { members["width"] = .number(Double(rng.int(20...120)) / 2) }
    if rng.chance(20) { members["tintColor"] = .string(rng.pick(Self.colors)) }
    if rng.chance(40) { members["action"] = .string("action.\(id)") }
    return .object(members)
  }

  /// A few distinct bar button ids, in random order.
  mutating func someButtons(_ pool: [String], max: Int) -> JSONValue {
    var shuffled = pool
    rng.shuffle(&shuffled)
    return .array(shuffled.prefix(rng.below(max + 1)).map { .string($0) })
  }

  mutating func navigationItem(_ id: String, buttons: [String]) -> JSONValue {
    var members: [String: JSONValue] = [
      "id": .string(id), "hidesBackButton": .bool(rng.chance(10)),
      "leftItemsSupplementBackButton": .bool(rng.chance(20)),
      "leftBarButtonItems": someButtons(buttons, max: 2), "rightBarButtonItems": someButtons(buttons, max: 3),
    ]
    if rng.chance(85) { members["title"] = .string(rng.pick(Self.titles)) }
    if rng.chance(20) { members["prompt"] = .string("Choose a \(rng.pick(Self.titles))") }
    if rng.chance(15), let back = buttons.first { members["backBarButtonItem"] = .string(back) }
    return .object(members)
  }

  mutating func appearance() -> JSONValue {
    var members: [String: JSONValue] = ["backgroundImages": .array([])]
    if rng.chance(40) { members["barStyle"] = .string(rng.pick(["default", "black"])) }
    if rng.chance(40) { members["tintColor"] = .string(rng.pick(Self.colors)) }
    if rng.chance(30) { members["translucent"] = .bool(rng.chance(50)) }
    return .object(members)
  }

  mutating func freshScreenId(avoiding taken: Set<String>) -> String {
    while true {
      let id = "\(rng.pick(Self.screens))-\(rng.below(50))"
      if !taken.contains(id) { return id }
    }
  }

  mutating func document() -> JSONValue {
    let buttons = (0..<rng.int(3...12)).map { "b\($0)" }
    var taken: Set<String> = []
    var items: [JSONValue] = []
    for _ in 0..<rng.int(1...5) {
      let id = freshScreenId(avoiding: taken)
      taken.insert(id)
      items.append(navigationItem(id, buttons: buttons))
    }
    var members: [String: JSONValue] = [
      "navigationBar": ["items": .array(items), "hidden": false, "appearance": appearance()],
      "toolbar": ["items": someButtons(buttons, max: 5), "hidden": .bool(rng.chance(20)), "appearance": appearance()],
      "barButtonItems": .array(buttons.map { button($0) }),
      "appearanceDefaults": ["navigationBar": appearance(), "toolbar": appearance()],
    ]
    if rng.chance(30) { members["tintColor"] = .string(rng.pick(Self.colors)) }
    return .object(members)
  }

  /// One navd-style edit of `document`, with its name.
  mutating func edit(_ document: JSONValue) -> (name: String, after: JSONValue) {
    let kind = rng.pick(Self.editKinds)
    return (kind, edit(document, kind: kind))
  }

  mutating func edit(_ document: JSONValue, kind: String) -> JSONValue {
    var doc = document
    let buttons = buttonIds(doc)
    var items = doc["navigationBar"]?["items"]?.arrayValue ?? []
    var toolbar = doc["toolbar"]?["items"]?.arrayValue ?? []
    let top = items.count - 1
    switch kind {
    case "push":
      let taken = Set(items.compactMap { $0["id"]?.stringValue })
      items.append(navigationItem(freshScreenId(avoiding: taken), buttons: buttons))
    case "pushSharingItems":
      // The new top item shares its right items with the old top: they must stay put.
      let taken = Set(items.compactMap { $0["id"]?.stringValue })
      var pushed = navigationItem(freshScreenId(avoiding: taken), buttons: buttons)
      if top >= 0 { set(&pushed, "rightBarButtonItems", items[top]["rightBarButtonItems"] ?? []) }
      items.append(pushed)
    case "pop" where items.count > 1: items.removeLast()
    case "popToRoot" where items.count > 1: items.removeSubrange(1...)
    case "setItems":
      var kept = items.filter { _ in rng.chance(60) }
      rng.shuffle(&kept)
      let taken = Set(kept.compactMap { $0["id"]?.stringValue })
      kept.insert(navigationItem(freshScreenId(avoiding: taken), buttons: buttons), at: rng.below(kept.count + 1))
      items = kept
    case "retitle" where top >= 0:
      set(&items[rng.below(items.count)], "title", .string(rng.pick(Self.titles) + " \(rng.below(100))"))
    case "setPrompt" where top >= 0: set(&items[top], "prompt", .string("Pick \(rng.below(10))"))
    case "clearPrompt" where top >= 0: set(&items[top], "prompt", nil)
    case "reorderRightItems" where top >= 0:
      var right = items[top]["rightBarButtonItems"]?.arrayValue ?? []
      if right.count < 2, let extra = buttons.first(where: { !right.contains(.string($0)) }) {
        right.append(.string(extra))
      }
      rng.shuffle(&right)
      set(&items[top], "rightBarButtonItems", .array(right))
    case "setLeftItem" where top >= 0 && !buttons.isEmpty:
      // leftBarButtonItem = x: x goes to the front, moving it if it is already there.
      var left = items[top]["leftBarButtonItems"]?.arrayValue ?? []
      let chosen = JSONValue.string(rng.pick(buttons))
      left.removeAll { $0 == chosen }
      left.insert(chosen, at: 0)
      set(&items[top], "leftBarButtonItems", .array(left))
    case "removeRightItem" where top >= 0:
      var right = items[top]["rightBarButtonItems"]?.arrayValue ?? []
      if !right.isEmpty { right.remove(at: rng.below(right.count)) }
      set(&items[top], "rightBarButtonItems", .array(right))
    case "hideBackButton" where top >= 0:
      set(&items[top], "hidesBackButton", .bool(!(items[top]["hidesBackButton"]?.boolValue ?? false)))
    case "toolbarInsert":
      if let extra = buttons.filter({ !toolbar.contains(.string($0)) }).first {
        toolbar.insert(.string(extra), at: rng.below(toolbar.count + 1))
      }
    case "toolbarRemove" where !toolbar.isEmpty: toolbar.remove(at: rng.below(toolbar.count))
    case "toolbarReorder": rng.shuffle(&toolbar)
    case "toolbarHidden":
      update(&doc, "toolbar") { set(&$0, "hidden", .bool(!($0["hidden"]?.boolValue ?? false))) }
    case "sceneTint": set(&doc, "tintColor", rng.chance(20) ? nil : .string(rng.pick(Self.colors)))
    case "barTint":
      update(&doc, "navigationBar") { bar in
        update(&bar, "appearance") { set(&$0, "barTintColor", .string(rng.pick(Self.colors))) }
      }
    case "buttonRetitle", "buttonDisable":
      update(&doc, "barButtonItems") { list in
        guard case .array(var all) = list, !all.isEmpty else { return }
        let index = rng.below(all.count)
        if kind == "buttonRetitle" {
          set(&all[index], "title", .string(rng.pick(Self.titles)))
          set(&all[index], "systemItem", nil)
        } else {
          set(&all[index], "enabled", .bool(!(all[index]["enabled"]?.boolValue ?? true)))
        }
        list = .array(all)
      }
    case "buttonAdd":
      update(&doc, "barButtonItems") { list in
        var all = list.arrayValue ?? []
        all.insert(button("b\(buttons.count + rng.below(100))x"), at: rng.below(all.count + 1))
        list = .array(all)
      }
    case "buttonRemoveUnused":
      var used = Set(toolbar.compactMap(\.stringValue))
      for item in items {
        for key in ["leftBarButtonItems", "rightBarButtonItems"] {
          used.formUnion((item[key]?.arrayValue ?? []).compactMap(\.stringValue))
        }
        if let back = item["backBarButtonItem"]?.stringValue { used.insert(back) }
      }
      update(&doc, "barButtonItems") { list in
        list = .array((list.arrayValue ?? []).filter { !used.contains($0["id"]?.stringValue ?? "") })
      }
    case "titleView" where top >= 0:
      set(&items[top], "titleView", ["kind": "label", "text": .string(rng.pick(Self.titles)), "width": 120])
    case "backgroundImage":
      update(&doc, "navigationBar") { bar in
        update(&bar, "appearance") {
          set(
            &$0, "backgroundImages",
            [["position": "top", "metrics": "default", "image": ["name": .string("bar-\(rng.below(5))")]]])
        }
      }
    default:
      break
    }
    update(&doc, "navigationBar") { set(&$0, "items", .array(items)) }
    update(&doc, "toolbar") { set(&$0, "items", .array(toolbar)) }
    return doc
  }
}

/// Sets (or with nil removes) an object member in place; does nothing to a non-object.
private func set(_ value: inout JSONValue, _ key: String, _ member: JSONValue?) {
  guard case .object(var members) = value else { return }
  members[key] = member
  value = .object(members)
}

/// Edits an object member in place; does nothing when the member is missing.
private func update(_ value: inout JSONValue, _ key: String, _ body: (inout JSONValue) -> Void) {
  guard case .object(var members) = value, var member = members[key] else { return }
  body(&member)
  members[key] = member
  value = .object(members)
}
