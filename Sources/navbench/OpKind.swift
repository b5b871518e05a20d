/// The kinds of mutation issue 25 measures, each a `Mutate` on the same
/// scene (`setupOps`: three screens, left and right bar button items on
/// the top one, a back item on the one below it, ten toolbar items with
/// flexible spaces), together covering every op.
///
/// Every kind's mutation applies to the scene whatever came before it, so
/// sequence numbers may start anywhere and repeat (a pipelined writer
/// cycles through its frames); where a kind alternates, it does so by the
/// sequence's parity.
enum OpKind: String, CaseIterable {
  /// `updateNavigationItem`: the top item's title.
  case title
  /// `updateBarButtonItem`: the title of a right bar button item of the top item.
  case rightItemTitle
  /// `updateBarButtonItem`: the title of a toolbar item.
  case toolbarItemTitle
  /// A back item's title, a toolbar item disabled and enabled, the top item's prompt.
  case fourOps
  /// `pop`, then `push` of a new item with bar button items.
  case popPush
  /// `setStack` of the three screens, the top one retitled.
  case setStack
  /// `popTo` the bottom screen, then two pushes back to three.
  case popTo
  /// Every bar button item op on the top item: remove and insert, set both sides, move.
  case barItems
  /// Every toolbar op: set, define an item, insert, move, remove, delete it.
  case toolbarItems
  /// `updateAppearance` of the navigation bar and the toolbar.
  case appearance
  /// `setBarHidden`: the toolbar hidden and shown, by turns.
  case hiddenBars
  /// `setSceneTint` and `setDefaultItemTint`.
  case tints

  /// The width subscribers ask for on this scene (issue 25's table).
  static let width = 768

  /// What the kind changes, for table rows.
  var label: String {
    switch self {
    case .title: "top item's title"
    case .rightItemTitle: "a right bar button item's title"
    case .toolbarItemTitle: "a toolbar item's title"
    case .fourOps: "four ops (back item's title, an item disabled and enabled, prompt)"
    case .popPush: "pop, then push a new item"
    case .setStack: "setStack of three screens"
    case .popTo: "popTo the bottom, two pushes"
    case .barItems: "bar button item ops (remove, insert, set, move)"
    case .toolbarItems: "toolbar ops (set, define, insert, move, remove, delete)"
    case .appearance: "appearance of both bars"
    case .hiddenBars: "toolbar hidden and shown"
    case .tints: "scene and default item tints"
    }
  }

  /// Ten toolbar items: titled ones with a flexible space after each.
  static let toolbar = (0..<10).map { $0 % 2 == 0 ? "tool\($0)" : "flex\($0)" }

  /// The ops that build the scene, in wire form, as a client sends them.
  static let setupOps: String = {
    var ops: [String] = []
    for id in toolbar {
      let definition =
        id.hasPrefix("flex")
        ? #"{"id":"\#(id)","systemItem":"flexibleSpace"}"# : #"{"id":"\#(id)","title":"Tool \#(id.dropFirst(4))"}"#
      ops.append(#"{"op":"defineBarButtonItem","barButtonItem":\#(definition)}"#)
    }
    ops.append(#"{"op":"defineBarButtonItem","barButtonItem":{"id":"edit","systemItem":"edit"}}"#)
    for (id, title) in [("add", "Add"), ("done", "Done"), ("share", "Share"), ("back", "Mail")] {
      ops.append(#"{"op":"defineBarButtonItem","barButtonItem":{"id":"\#(id)","title":"\#(title)"}}"#)
    }
    ops.append(#"{"op":"setToolbarItems","items":\#(toolbarList)}"#)
    ops.append(#"{"op":"setStack","items":\#(stack(topTitle: "Message"))}"#)
    return "[" + ops.joined(separator: ",") + "]"
  }()

  static let toolbarList = "[" + toolbar.map { #""\#($0)""# }.joined(separator: ",") + "]"

  static func thread() -> String { #"{"id":"thread","title":"Thread","backBarButtonItem":"back"}"# }

  static func top(id: String = "top", title: String) -> String {
    #"{"id":"\#(id)","title":"\#(title)","leftBarButtonItems":["edit","add"],"rightBarButtonItems":["done","share"]}"#
  }

  static func stack(topTitle: String) -> String {
    #"[{"id":"inbox","title":"Inbox"},\#(thread()),\#(top(title: topTitle))]"#
  }

  /// A colour that changes with the sequence number.
  static func color(_ sequence: Int) -> String {
    let hex = String(UInt32(truncatingIfNeeded: sequence) & 0xff_ffff, radix: 16)
    return "#" + String(repeating: "0", count: 6 - hex.count) + hex
  }

  /// The kind's ops for `sequence`; `text` is the one string that varies
  /// (and carries the padding), empty for kinds with no text.
  func ops(sequence: Int, text: String) -> String {
    let even = sequence % 2 == 0
    switch self {
    case .title:
      return #"[{"op":"updateNavigationItem","item":"top","set":{"title":"\#(text)"}}]"#
    case .rightItemTitle:
      return #"[{"op":"updateBarButtonItem","barButtonItem":"done","set":{"title":"\#(text)"}}]"#
    case .toolbarItemTitle:
      return #"[{"op":"updateBarButtonItem","barButtonItem":"tool4","set":{"title":"\#(text)"}}]"#
    case .fourOps:
      return #"[{"op":"updateBarButtonItem","barButtonItem":"back","set":{"title":"\#(text)"}},"#
        + #"{"op":"updateBarButtonItem","barButtonItem":"tool2","set":{"enabled":false}},"#
        + #"{"op":"updateBarButtonItem","barButtonItem":"tool2","set":{"enabled":true}},"#
        + #"{"op":"updateNavigationItem","item":"top","set":{"prompt":"Prompt \#(sequence)"}}]"#
    case .popPush:
      let item = Self.top(id: "m\(sequence)", title: text)
      return #"[{"op":"pop"},{"op":"push","item":\#(item)}]"#
    case .setStack:
      return #"[{"op":"setStack","items":\#(Self.stack(topTitle: text))}]"#
    case .popTo:
      return #"[{"op":"popTo","item":"inbox"},{"op":"push","item":\#(Self.thread())},"#
        + #"{"op":"push","item":\#(Self.top(title: text))}]"#
    case .barItems:
      let before = even ? #""edit""# : "null"
      let right = even ? #"["share","done"]"# : #"["done","share"]"#
      return #"[{"op":"removeBarButtonItem","item":"top","side":"left","barButtonItem":"add"},"#
        + #"{"op":"insertBarButtonItem","item":"top","side":"left","barButtonItem":"add","before":\#(before)},"#
        + #"{"op":"setBarButtonItems","item":"top","side":"right","items":\#(right)},"#
        + #"{"op":"setBarButtonItem","item":"top","side":"left","barButtonItem":"\#(even ? "add" : "edit")"},"#
        + #"{"op":"moveBarButtonItem","item":"top","side":"right","barButtonItem":"done","before":null}]"#
    case .toolbarItems:
      let before = even ? #""tool0""# : "null"
      return #"[{"op":"setToolbarItems","items":\#(Self.toolbarList)},"#
        + #"{"op":"defineBarButtonItem","barButtonItem":{"id":"extra","title":"\#(text)"}},"#
        + #"{"op":"insertToolbarItem","barButtonItem":"extra","before":"tool4"},"#
        + #"{"op":"moveToolbarItem","barButtonItem":"tool8","before":\#(before)},"#
        + #"{"op":"removeToolbarItem","barButtonItem":"flex9"},"#
        + #"{"op":"deleteBarButtonItem","barButtonItem":"extra"}]"#
    case .appearance:
      return #"[{"op":"updateAppearance","target":"navigationBar","set":{"barTintColor":"\#(Self.color(sequence))"}},"#
        + #"{"op":"updateAppearance","target":"toolbar","set":{"tintColor":"\#(Self.color(sequence + 1))"}}]"#
    case .hiddenBars:
      return #"[{"op":"setBarHidden","bar":"toolbar","hidden":\#(even)}]"#
    case .tints:
      return #"[{"op":"setSceneTint","tintColor":"\#(Self.color(sequence))"},"#
        + #"{"op":"setDefaultItemTint","tintColor":"\#(Self.color(sequence + 1))"}]"#
    }
  }

  /// Whether the kind's ops carry a text that can be padded.
  var hasText: Bool {
    switch self {
    case .barItems, .appearance, .hiddenBars, .tints: false
    default: true
    }
  }

  /// The parameters of the kind's `Mutate` on `channel`, padded in its
  /// text to `bytes` in all where it has one (and is shorter).
  func parameters(channel: String, sequence: Int, bytes: Int) -> [UInt8] {
    func build(_ text: String) -> String {
      #"{"scene":"\#(channel)","ops":\#(ops(sequence: sequence, text: text))}"#
    }
    guard hasText else { return Array(build("").utf8) }
    let text = "title \(sequence) "
    let padding = max(0, bytes - build(text).utf8.count)
    return Array(build(text + String(repeating: "x", count: padding)).utf8)
  }
}
