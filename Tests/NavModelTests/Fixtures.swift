import Foundation
import NavModel
import Testing

/// Builders shared by the op, limit and JSON tests.
///
/// The states are built directly (not through ops) so a bug in an op cannot
/// hide behind a fixture that was itself made by that op.
enum Fixtures {
  // MARK: - Bar button items

  static func button(_ id: String, title: String? = nil) -> BarButtonItem {
    BarButtonItem(id: id, title: title ?? id.capitalized)
  }

  static func system(_ id: String, _ systemItem: SystemItem, width: Double? = nil) -> BarButtonItem {
    BarButtonItem(id: id, systemItem: systemItem, width: width)
  }

  /// A bar button item with every property set (a custom item: title and image, no system item).
  static let fullButton = BarButtonItem(
    id: "full.item-1", style: .done, title: "Fülle ✓",
    image: ImageRef(name: "star.fill", opaque: false, width: 22, height: 21.5),
    width: 88.25, possibleTitles: ["Short", "A much longer title"],
    customView: CustomView(name: "gauge", width: 120, height: 28),
    enabled: false, tag: -9_007_199_254_740_992, tintColor: Color(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x78),
    action: "app.full")

  // MARK: - Scenes

  /// The bar button items of `scene`, in definition order.
  static let buttons: [BarButtonItem] = [
    button("back", title: "Mail"),
    system("done", .done),
    system("edit", .edit),
    button("share"),
    system("add", .add),
    system("flex", .flexibleSpace),
    system("fixed", .fixedSpace, width: 20),
    button("reply"),
  ]

  /// A mail-like scene: inbox ← message on the stack, items on both sides, a toolbar.
  ///
  /// "share" is on the top item's left, in the toolbar and is the root's back
  /// button, so delete and update tests see one item in every kind of slot.
  static var scene: SceneState {
    SceneState(
      navigationBar: NavigationBarState(items: [
        NavigationItem(id: "inbox", title: "Inbox", backBarButtonItem: "back", rightBarButtonItems: ["edit"]),
        NavigationItem(
          id: "message", title: "Message", prompt: "From Ann", leftItemsSupplementBackButton: true,
          leftBarButtonItems: ["share"], rightBarButtonItems: ["done", "add"]),
      ]),
      toolbar: ToolbarState(items: ["flex", "share", "fixed", "reply"]),
      barButtonItems: BarButtonItemRegistry(buttons))
  }

  /// `scene` with the given stack instead of its own.
  static func scene(stack ids: [String]) -> SceneState {
    var state = scene
    state.navigationBar.items = ids.map { NavigationItem(id: $0, title: $0.capitalized) }
    return state
  }

  /// A scene with `count` items named `b0`, `b1`, … and `stack` as plain navigation items.
  static func scene(buttonCount count: Int, stack ids: [String] = ["root"]) -> SceneState {
    SceneState(
      navigationBar: NavigationBarState(items: ids.map { NavigationItem(id: $0) }),
      barButtonItems: BarButtonItemRegistry((0..<count).map { button("b\($0)") }))
  }

  /// A stack of `depth` plain navigation items `n0` … `n<depth-1>`.
  static func stack(depth: Int) -> [NavigationItem] {
    (0..<depth).map { NavigationItem(id: "n\($0)") }
  }

  static func appearance(_ seed: UInt8) -> BarAppearance {
    var appearance = BarAppearance(
      barStyle: .black, tintColor: Color(red: seed, green: 0x80, blue: 0xFF),
      barTintColor: Color(red: 0x10, green: seed, blue: 0x30, alpha: 0x40), translucent: false,
      shadowImage: ImageRef(name: "shadow-\(seed)", opaque: false, width: 1, height: 0.5),
      titleTextAttributes: TitleTextAttributes(
        font: "Cantarell Bold", size: 17.5, color: Color(red: 1, green: 2, blue: seed)))
    appearance.setBackgroundImage(ImageRef(name: "bg-compact"), position: .topAttached, metrics: .compact)
    appearance.setBackgroundImage(
      ImageRef(name: "bg", opaque: false, width: 320, height: 44), position: .any, metrics: .default)
    appearance.setBackgroundImage(ImageRef(name: "bg-prompt"), position: .top, metrics: .defaultPrompt)
    return appearance
  }

  /// A scene with every field of every type set, for round trips.
  static var richScene: SceneState {
    var state = scene
    state.barButtonItems[fullButton.id] = fullButton
    state.navigationBar.items.append(
      NavigationItem(
        id: "thread.2024-01_a", title: "Thread \"quoted\" \\ \u{1F600}", prompt: "Thin\u{2009}space, «quotes»",
        titleView: CustomView(name: "segmented", width: 200, height: 32), backBarButtonItem: "back",
        hidesBackButton: true,
        leftItemsSupplementBackButton: true, leftBarButtonItems: ["reply", "share"],
        rightBarButtonItems: ["full.item-1"]))
    state.navigationBar.hidden = true
    state.navigationBar.appearance = appearance(1)
    state.toolbar.hidden = true
    state.toolbar.appearance = appearance(2)
    state.tintColor = Color(red: 0xAB, green: 0xCD, blue: 0xEF)
    state.appearanceDefaults = AppearanceDefaults(
      navigationBar: appearance(3), toolbar: appearance(4),
      barButtonItemTintColor: Color(red: 9, green: 8, blue: 7, alpha: 0))
    return state
  }

  // MARK: - Strings

  /// `count` copies of `unit` followed by `tail`: a string of a known UTF-8 byte length.
  static func text(_ unit: String, _ count: Int, tail: String = "") -> String {
    String(repeating: unit, count: count) + tail
  }

  /// Wire-form ops from JSON text, as a Mutate call would carry them.
  static func ops(_ text: String) throws -> [Op] {
    try Op.list(json: try JSONParser.parse(text))
  }

  /// One wire-form op, at `ops[0]`.
  static func op(_ text: String) throws -> Op {
    try Op(json: try JSONParser.parse(text), path: "ops[0]")
  }
}

// MARK: - Expectations

/// Expects `body` to throw a `NavError` with this code, field and op index, and returns it.
@discardableResult
func expectNavError<T>(
  _ code: NavError.Code, field: String?, opIndex: Int? = 0, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws(NavError) -> T
) -> NavError? {
  do {
    let value = try body()
    Issue.record(
      "expected \(code.rawValue) at \(field ?? "no field"), but it succeeded: \(value)", sourceLocation: sourceLocation)
    return nil
  } catch {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    #expect(error.field == field, "\(error)", sourceLocation: sourceLocation)
    #expect(error.opIndex == opIndex, "\(error)", sourceLocation: sourceLocation)
    return error
  }
}

/// Expects applying `ops` to `state` to fail as described. The state is a value,
/// so "nothing changed" means: no new state came back, only the error.
@discardableResult
func expectFailure(
  _ state: SceneState, _ ops: [Op], _ code: NavError.Code, field: String?, opIndex: Int? = 0,
  limits: ModelLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) -> NavError? {
  expectNavError(code, field: field, opIndex: opIndex, sourceLocation: sourceLocation) { () throws(NavError) in
    try state.applying(ops, limits: limits)
  }
}

/// Expects `ops` on `state` to fail with `limitExceeded`, naming `limit` and its `max`.
@discardableResult
func expectLimit(
  _ state: SceneState, _ ops: [Op], limit: String, max: Int, field: String?, opIndex: Int? = 0,
  sourceLocation: SourceLocation = #_sourceLocation
) -> NavError? {
  let error = expectFailure(
    state, ops, .limitExceeded, field: field, opIndex: opIndex, sourceLocation: sourceLocation)
  #expect(error?.limit == limit, sourceLocation: sourceLocation)
  #expect(error?.max == max, sourceLocation: sourceLocation)
  return error
}

/// Expects decoding `text` as one op at `ops[0]` to fail with `invalidMutation` at `field`.
@discardableResult
func expectDecodingFailure(
  _ text: String, field: String?, sourceLocation: SourceLocation = #_sourceLocation
) -> NavError? {
  let json: JSONValue
  do {
    json = try JSONParser.parse(text)
  } catch {
    Issue.record("test JSON does not parse: \(error)", sourceLocation: sourceLocation)
    return nil
  }
  return expectNavError(.invalidMutation, field: field, opIndex: nil, sourceLocation: sourceLocation) {
    () throws(NavError) in try Op(json: json, path: "ops[0]")
  }
}
