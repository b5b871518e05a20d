import NavModel
import Testing

@testable import NavCtlKit

/// `navctl show` drawings of real layouts: scenes built with navctl's own commands,
/// resolved by `LayoutResolver`, drawn in Unicode and ASCII (and, for some, with colour).
///
/// Goldens live in `Golden/show/`; `NAVD_UPDATE_GOLDEN=1` rewrites them.
@Suite("show golden drawings")
struct ShowGoldenTests {
  /// One drawing: a name, the commands that build the scene, and the width in columns.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var commands: [String]
    var columns: Int? = 48
    var colour = false
    var testDescription: String { name }
  }

  static let mailItems = [
    "item edit --system edit", "item compose --system compose", "item refresh --system refresh",
    "item flex --system flexibleSpace", "item trash --system trash",
  ]

  static let cases: [Case] = [
    Case(name: "empty-scene", commands: []),
    Case(name: "root-item", commands: ["push Mailboxes --id mailboxes"]),
    Case(
      name: "back-from-back-item-title",
      commands: mailItems + ["push Mailboxes --id mailboxes", "push Inbox --id inbox --right edit"]),
    Case(
      name: "back-from-back-bar-button-item",
      commands: [
        "item mail-back --title Mail", "push Mailboxes --id mailboxes --back-button mail-back", "push Inbox --id inbox",
      ]),
    Case(
      name: "back-image-from-back-bar-button-item",
      commands: ["item home --image house", "push Home --id home --back-button home", "push Settings --id settings"]),
    Case(name: "back-fallback-back", commands: ["set-stack first", "push Detail --id detail"]),
    Case(
      name: "back-hidden",
      commands: ["push Mailboxes --id mailboxes", "push Inbox --id inbox --hide-back"]),
    Case(
      name: "left-replaces-back",
      commands: [
        "item cancel --system cancel", "push Mailboxes --id mailboxes", "push Compose --id compose --left cancel",
      ]),
    Case(
      name: "left-supplements-back",
      commands: [
        "item search --system search", "push Mailboxes --id mailboxes",
        "push Inbox --id inbox --left search --supplement-back",
      ]),
    Case(
      name: "title-view",
      commands: ["push Inbox --id inbox --title-view segmented --title-view-width 160"]),
    Case(
      name: "title-view-yields-to-left-items",
      commands: [
        "item edit --system edit", "push Inbox --id inbox --title-view segmented --title-view-width 160 --left edit",
      ]),
    Case(
      name: "prompt",
      commands: ["push Mailboxes --id mailboxes", "push Inbox --id inbox --prompt 'Choose a message to read'"]),
    Case(
      name: "right-items-order",
      commands: [
        "item first --title One", "item second --title Two", "item third --title Ten",
        "push Items --id items --right first,second,third",
      ]),
    Case(
      name: "overflow-narrow",
      commands: [
        "item search --system search", "item filter --title Filter", "item add --system add",
        "item share --title Share", "item info --image info", "push Chats --id chats",
        "push Messages --id messages --supplement-back --left search,filter --right add,share,info",
      ],
      columns: 42),
    Case(
      name: "overflow-wide",
      commands: [
        "item search --system search", "item filter --title Filter", "item add --system add",
        "item share --title Share", "item info --image info", "push Chats --id chats",
        "push Messages --id messages --supplement-back --left search,filter --right add,share,info",
      ],
      columns: 80),
    Case(
      name: "shifted-title",
      commands: [
        "item done --title Done --style done", "push 'Settings and Privacy' --id settings",
        "push Notifications --id notifications --right done",
      ]),
    Case(
      name: "truncated-title",
      commands: [
        "item done --title Done --style done", "push 'Settings and Privacy' --id settings",
        "push 'Notification Settings' --id notifications --right done",
      ]),
    Case(
      name: "toolbar-flexible-and-fixed-spaces",
      commands: mailItems + [
        "item reply --system reply", "item gap --system fixedSpace --width 40", "item flex2 --system flexibleSpace",
        "toolbar set trash flex reply gap compose flex2 refresh",
      ]),
    Case(
      name: "toolbar-overflow",
      commands: [
        "item select --title Select", "item move --title Move", "item flex --system flexibleSpace",
        "item delete --title Delete", "item more --title More", "toolbar set select move flex delete more",
      ],
      columns: 27),
    Case(
      name: "disabled-items",
      commands: [
        "item save --title Save --disabled", "item undo --system undo --disabled", "item back --title Back --disabled",
        "push Drafts --id drafts --back-button back", "push Draft --id draft --right save,undo",
        "item archive --title Archive --disabled", "item flex --system flexibleSpace", "toolbar set flex archive",
      ]),
    Case(
      name: "disabled-items-colour",
      commands: [
        "item save --title Save --disabled", "item undo --system undo --disabled",
        "push Draft --id draft --right save,undo",
      ],
      colour: true),
    Case(
      name: "black-style",
      commands: mailItems + [
        "push Inbox --id inbox --left edit --right compose", "toolbar set refresh flex trash",
        "appearance navigation-bar --style black", "appearance defaults-toolbar --style black",
      ]),
    Case(
      name: "black-style-colour",
      commands: mailItems + [
        "push Inbox --id inbox --left edit --right compose", "toolbar set refresh flex trash",
        "appearance navigation-bar --style black --tint #FF9500",
        "appearance toolbar --bar-tint #1C1C1E --translucent no",
      ],
      colour: true),
    Case(
      name: "hidden-bars",
      commands: [
        "push Inbox --id inbox", "navigation-bar hide", "item trash --system trash", "toolbar set trash",
        "toolbar hide",
      ]),
    Case(
      name: "styles-and-custom-views",
      commands: [
        "item plain --title Plain", "item boxed --title Boxed --style bordered", "item done --title Done --style done",
        "item clock --custom-view clock --view-width 64", "item blank",
        "push Styles --id styles --left boxed,plain --right done",
        "toolbar set clock blank",
      ]),
    Case(
      name: "mail-walkthrough",
      commands: mailItems + [
        "push Inbox --id inbox --left edit --right compose", "toolbar set refresh flex trash",
        "push 'Lunch on Friday?' --id message",
      ]),
    Case(
      name: "mail-walkthrough-colour",
      commands: mailItems + [
        "push Inbox --id inbox --left edit --right compose", "toolbar set refresh flex trash",
        "push 'Lunch on Friday?' --id message",
      ],
      colour: true),
    Case(
      name: "wide-characters",
      commands: ["item ok --title 確認", "push 受信トレイ --id inbox", "push 'Café ☕ Menu' --id menu --right ok"]),
    Case(
      name: "without-geometry",
      commands: mailItems + [
        "push Inbox --id inbox --left edit --right compose", "toolbar set refresh flex trash",
        "push 'Lunch on Friday?' --id message --prompt 'From Ada'",
      ],
      columns: nil),
  ]

  @Test("show draws the layout", arguments: cases)
  func draw(_ test: Case) throws {
    let state = try Support.scene(test.commands)
    let layout = Support.layout(state, columns: test.columns)
    let columns = test.columns ?? 48
    if test.colour {
      try Golden.check(
        BarRenderer.render(layout: try Layout(json: layout), width: columns, style: .terminal),
        named: "show/\(test.name).ansi.txt")
      return
    }
    try Golden.check(
      BarRenderer.render(layout: try Layout(json: layout), width: columns, style: .unicode),
      named: "show/\(test.name).unicode.txt")
    try Golden.check(
      BarRenderer.render(layout: try Layout(json: layout), width: columns, style: .ascii),
      named: "show/\(test.name).ascii.txt")
  }

  @Test("every line of a drawing is exactly as wide as asked, whatever the layout", arguments: cases)
  func widths(_ test: Case) throws {
    let state = try Support.scene(test.commands)
    for columns in [12, 30, 48, 100] {
      let layout = Support.layout(state, columns: test.columns == nil ? nil : columns)
      for style in [RenderStyle.unicode, .ascii] {
        let drawing = BarRenderer.render(layout: try Layout(json: layout), width: columns, style: style)
        let boxLines = drawing.split(separator: "\n").filter { line in
          ["┌", "└", "│", "┆", "╔", "╚", "║", "+", "|", ":", "#"].contains { line.hasPrefix($0) }
        }
        #expect(boxLines.count >= 6)
        for line in boxLines { #expect(DisplayWidth.of(String(line)) == columns, "\(line)") }
      }
    }
  }

  @Test("text from navd cannot steer the terminal: control characters are replaced")
  func sanitizes() throws {
    let layout: JSONValue = [
      "navigationBar": [
        "hidden": false, "topItem": "x", "prompt": "\u{1B}[2Jgone", "backButton": nil, "left": [],
        "centre": ["kind": "title", "title": "a\u{9B}31mb\u{202E}c", "titleView": nil], "right": [], "overflow": [],
        "appearance": ["barStyle": "default", "translucent": true, "tint": "#007AFF"],
      ],
      "toolbar": [
        "hidden": false, "items": [], "overflow": [],
        "appearance": ["barStyle": "default", "translucent": true, "tint": "#007AFF"],
      ],
    ]
    let drawing = BarRenderer.render(layout: try Layout(json: layout), width: 40, style: .ascii)
    #expect(!drawing.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x202E })
    #expect(drawing.contains("?[2Jgone"))
    #expect(drawing.contains("a?31mbc"))
  }
}
