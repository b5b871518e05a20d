import NavGtkKit
import NavModel
import Testing

@Suite("navd-gtk without a display: options, the layout reading, styles, transitions")
struct NavGtkKitTests {
  @Test("one --width for every window, or one per --scene; none opens main at 375")
  func windows() throws {
    #expect(try Options([]).windows == [.init(scene: "main", width: 375)])
    let one = try Options(["--scene", "a", "--scene", "b", "--width", "320"])
    #expect(one.windows.map(\.width) == [320, 320])
    let paired = try Options(["--scene", "a", "--width", "320", "--scene", "a", "--width", "500"])
    #expect(paired.windows == [.init(scene: "a", width: 320), .init(scene: "a", width: 500)])
  }

  @Test("every bad command line names its flag")
  func badOptions() {
    #expect(throws: OptionsError.widthsDoNotPair(widths: 2, scenes: 3)) {
      try Options(["--scene", "a", "--scene", "b", "--scene", "c", "--width", "300", "--width", "400"])
    }
    #expect(throws: OptionsError.notANumber(flag: "--width", value: "wide")) { try Options(["--width", "wide"]) }
    #expect(throws: OptionsError.outOfRange(flag: "--height", value: 5, range: 100...4000)) {
      try Options(["--height", "5"])
    }
    #expect(throws: OptionsError.missingValue("--scene")) { try Options(["--scene"]) }
    #expect(throws: OptionsError.unknown("--colour")) { try Options(["--colour"]) }
  }

  @Test("the drawing reads navd's spans, styles and tints, and the back button's title as sent")
  func reading() {
    let document: JSONValue = [
      "navigationBar": [
        "hidden": false, "topItem": "inbox", "prompt": "2 new",
        "backButton": [
          "sourceItem": "boxes", "item": .null, "title": "Mailboxes", "image": .null, "enabled": true,
          "tint": "#007AFF", "x": 8, "width": 92,
        ],
        "left": [],
        "centre": [
          "kind": "title", "title": "Inbox", "titleView": .null, "x": 167.5, "width": 40, "truncated": false,
        ],
        "right": [
          [
            "id": "edit", "kind": "system", "title": .null, "image": .null, "systemItem": "edit",
            "style": "bordered", "customView": .null, "enabled": false, "tint": "#FF9500", "x": 337, "width": 30,
          ]
        ],
        "overflow": [],
        "appearance": ["barStyle": "black", "translucent": false, "backgroundColor": "#000000", "tint": "#007AFF"],
      ],
      "toolbar": ["hidden": true, "items": [], "overflow": [], "appearance": [:]],
    ]
    let drawing = Drawing(document)
    #expect(drawing.navigationBar.backButton?.span == Drawing.Span(x: 8, width: 92))
    #expect(drawing.navigationBar.backButton?.title == "Mailboxes")
    #expect(drawing.navigationBar.centre?.span == Drawing.Span(x: 167.5, width: 40))
    let edit = drawing.navigationBar.right[0]
    #expect(edit.style == "bordered" && !edit.enabled && edit.tint == "#FF9500" && edit.label == "Edit")
    #expect(drawing.navigationBar.appearance.isDark)
    #expect(drawing.toolbar.hidden)
  }

  @Test("colours become CSS, one class per colour, translucent bars at 94% of their alpha")
  func styles() {
    var sheet = StyleSheet()
    #expect(sheet.tintClass("#ff9500") == "navd-tint-FF9500")
    #expect(StyleSheet.css("#FF9500") == "rgb(255,149,0)")
    #expect(StyleSheet.css("#00000080") == "rgba(0,0,0,0.502)")
    #expect(StyleSheet.css("red") == "currentColor")
    var appearance = Drawing(["navigationBar": ["appearance": ["backgroundColor": "#FFFFFF", "translucent": true]]])
      .navigationBar.appearance
    #expect(sheet.backgroundClass(appearance) == "navd-bg-FFFFFF-t")
    #expect(sheet.css.contains(".navd-bg-FFFFFF-t { background-color: rgba(255,255,255,0.94); }"))
    appearance.backgroundColor = nil
    #expect(sheet.backgroundClass(appearance) == nil)
    #expect(sheet.css.contains(".navd-tint-FF9500 { color: rgb(255,149,0); }"))
  }

  @Test("push slides left, pop slides right, other animated changes fade, unanimated ones do not move")
  func transitions() {
    #expect(Transition(events: [["type": "push", "item": "a"]], animated: true) == .slideLeft)
    #expect(Transition(events: [["type": "pop", "items": ["a"]]], animated: true) == .slideRight)
    #expect(Transition(events: [["type": "setStack", "transition": "pop"]], animated: true) == .slideRight)
    #expect(Transition(events: [], animated: true) == .crossfade)
    #expect(Transition(events: [["type": "push", "item": "a"]], animated: false) == .none)
  }

  @Test("every system item but the spaces has a face; the four words are words")
  func systemItems() {
    #expect(SystemItemFace.names.count == 23)
    for word in ["done", "cancel", "edit", "save"] { #expect(SystemItemFace(word).iconName == nil) }
    #expect(SystemItemFace("trash").iconName == "user-trash-symbolic")
  }
}
