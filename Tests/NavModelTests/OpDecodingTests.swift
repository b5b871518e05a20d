import NavModel
import Testing

/// Every op read from its wire form (`Ops/Op+JSON.swift`), and every way a wire op can be malformed.
@Suite("Op decoding")
struct OpDecodingTests {
  struct WireCase: Sendable, CustomTestStringConvertible {
    var json: String
    var op: Op
    var testDescription: String { json }
  }

  static let red50 = Color(red: 0xFF, green: 0, blue: 0, alpha: 0x80)

  static let wireCases: [WireCase] = [
    WireCase(
      json: #"{"op":"push","item":{"id":"n","title":"T","leftBarButtonItems":["a"]},"animated":true}"#,
      op: .push(NavigationItem(id: "n", title: "T", leftBarButtonItems: ["a"]), animated: true)),
    WireCase(json: #"{"op":"push","item":{"id":"n"}}"#, op: .push(NavigationItem(id: "n"), animated: false)),
    WireCase(json: #"{"op":"pop"}"#, op: .pop(expectTop: nil, animated: false)),
    WireCase(json: #"{"op":"pop","expectTop":null,"animated":null}"#, op: .pop(expectTop: nil, animated: false)),
    WireCase(json: #"{"op":"pop","expectTop":"m","animated":true}"#, op: .pop(expectTop: "m", animated: true)),
    WireCase(json: #"{"op":"popTo","item":"a","animated":true}"#, op: .popTo("a", animated: true)),
    WireCase(
      json: #"{"op":"setStack","items":[{"id":"a"},{"id":"b","hidesBackButton":true,"rightBarButtonItems":["x"]}]}"#,
      op: .setStack(
        [NavigationItem(id: "a"), NavigationItem(id: "b", hidesBackButton: true, rightBarButtonItems: ["x"])],
        animated: false)),
    WireCase(json: #"{"op":"setStack","items":[],"animated":true}"#, op: .setStack([], animated: true)),
    WireCase(
      json: #"""
        {"op":"updateNavigationItem","item":"a","animated":true,"set":{"title":"T","prompt":null,
         "titleView":{"name":"v","width":10},"backBarButtonItem":"b","hidesBackButton":true,
         "leftItemsSupplementBackButton":false}}
        """#,
      // A JSON object has no order: the fields come out sorted by name.
      op: .updateNavigationItem(
        "a",
        [
          .backBarButtonItem("b"), .hidesBackButton(true), .leftItemsSupplementBackButton(false), .prompt(nil),
          .title("T"),
          .titleView(CustomView(name: "v", width: 10, height: 30)),
        ], animated: true)),
    WireCase(
      json: #"{"op":"updateNavigationItem","item":"a","set":{}}"#, op: .updateNavigationItem("a", [], animated: false)),
    WireCase(
      json: #"{"op":"setBarButtonItems","item":"a","side":"right","items":["x","y"],"animated":true}"#,
      op: .setBarButtonItems(navigationItem: "a", side: .right, items: ["x", "y"], animated: true)),
    WireCase(
      json: #"{"op":"setBarButtonItem","item":"a","side":"left","barButtonItem":"x"}"#,
      op: .setBarButtonItem(navigationItem: "a", side: .left, item: "x", animated: false)),
    WireCase(
      json: #"{"op":"setBarButtonItem","item":"a","side":"left","barButtonItem":null,"animated":true}"#,
      op: .setBarButtonItem(navigationItem: "a", side: .left, item: nil, animated: true)),
    WireCase(
      json: #"{"op":"insertBarButtonItem","item":"a","side":"right","barButtonItem":"x","before":"y"}"#,
      op: .insertBarButtonItem(navigationItem: "a", side: .right, item: "x", before: "y")),
    WireCase(
      json: #"{"op":"insertBarButtonItem","item":"a","side":"left","barButtonItem":"x"}"#,
      op: .insertBarButtonItem(navigationItem: "a", side: .left, item: "x", before: nil)),
    WireCase(
      json: #"{"op":"removeBarButtonItem","item":"a","side":"left","barButtonItem":"x"}"#,
      op: .removeBarButtonItem(navigationItem: "a", side: .left, item: "x")),
    WireCase(
      json: #"{"op":"moveBarButtonItem","item":"a","side":"right","barButtonItem":"x","before":null}"#,
      op: .moveBarButtonItem(navigationItem: "a", side: .right, item: "x", before: nil)),
    WireCase(
      json: #"{"op":"moveBarButtonItem","item":"a","side":"right","barButtonItem":"x","before":"z"}"#,
      op: .moveBarButtonItem(navigationItem: "a", side: .right, item: "x", before: "z")),
    WireCase(
      json: #"""
        {"op":"defineBarButtonItem","barButtonItem":{"id":"full.item-1","style":"done","title":"Fülle ✓",
         "image":{"name":"star.fill","opaque":false,"width":22,"height":21.5},"width":88.25,
         "possibleTitles":["Short","A much longer title"],"customView":{"name":"gauge","width":120,"height":28},
         "enabled":false,"tag":-9007199254740992,"tintColor":"#12345678","action":"app.full"}}
        """#,
      op: .defineBarButtonItem(Fixtures.fullButton)),
    // R39 defaults: plain, enabled, tag 0, no possible titles.
    WireCase(
      json: #"{"op":"defineBarButtonItem","barButtonItem":{"id":"x"}}"#,
      op: .defineBarButtonItem(BarButtonItem(id: "x"))),
    WireCase(
      json:
        #"{"op":"defineBarButtonItem","barButtonItem":{"id":"x","systemItem":"fastForward","image":null,"title":null}}"#,
      op: .defineBarButtonItem(BarButtonItem(id: "x", systemItem: .fastForward))),
    WireCase(
      json: #"""
        {"op":"updateBarButtonItem","barButtonItem":"x","set":{"systemItem":"pageCurl","style":"bordered",
         "title":null,"image":null,"width":12.5,"possibleTitles":["a"],"customView":null,"enabled":false,
         "tag":-3,"tintColor":"#ff000080","action":"go"}}
        """#,
      op: .updateBarButtonItem(
        "x",
        [
          .action("go"), .customView(nil), .enabled(false), .image(nil), .possibleTitles(["a"]), .style(.bordered),
          .systemItem(.pageCurl), .tag(-3), .tintColor(red50), .title(nil), .width(12.5),
        ])),
    WireCase(
      json:
        #"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"systemItem":null,"width":null,"tintColor":null}}"#,
      op: .updateBarButtonItem("x", [.systemItem(nil), .tintColor(nil), .width(nil)])),
    WireCase(json: #"{"op":"deleteBarButtonItem","barButtonItem":"x"}"#, op: .deleteBarButtonItem("x")),
    WireCase(
      json: #"{"op":"setToolbarItems","items":["a","b"],"animated":true}"#,
      op: .setToolbarItems(["a", "b"], animated: true)),
    WireCase(json: #"{"op":"setToolbarItems","items":[]}"#, op: .setToolbarItems([], animated: false)),
    WireCase(
      json: #"{"op":"insertToolbarItem","barButtonItem":"x","before":"y"}"#, op: .insertToolbarItem("x", before: "y")),
    WireCase(json: #"{"op":"insertToolbarItem","barButtonItem":"x"}"#, op: .insertToolbarItem("x", before: nil)),
    WireCase(json: #"{"op":"removeToolbarItem","barButtonItem":"x"}"#, op: .removeToolbarItem("x")),
    WireCase(
      json: #"{"op":"moveToolbarItem","barButtonItem":"x","before":"y"}"#, op: .moveToolbarItem("x", before: "y")),
    WireCase(json: #"{"op":"moveToolbarItem","barButtonItem":"x"}"#, op: .moveToolbarItem("x", before: nil)),
    WireCase(
      json: #"{"op":"setBarHidden","bar":"toolbar","hidden":true,"animated":true}"#,
      op: .setBarHidden(.toolbar, hidden: true, animated: true)),
    WireCase(
      json: #"{"op":"setBarHidden","bar":"navigationBar","hidden":false}"#,
      op: .setBarHidden(.navigationBar, hidden: false, animated: false)),
    WireCase(
      json: #"""
        {"op":"updateAppearance","target":"defaultToolbar","set":{"barStyle":"black","tintColor":"#0A0B0C",
         "barTintColor":"#0a0b0c0d","translucent":false,"shadowImage":{"name":"s"},
         "titleTextAttributes":{"font":"Inter","size":17,"color":"#000000"},
         "backgroundImages":[{"position":"top","metrics":"compactPrompt","image":{"name":"bg","opaque":false}},
                             {"position":"any","metrics":"default","image":null}]}}
        """#,
      op: .updateAppearance(
        .defaultToolbar,
        [
          .backgroundImage(ImageRef(name: "bg", opaque: false), position: .top, metrics: .compactPrompt),
          .backgroundImage(nil, position: .any, metrics: .default), .barStyle(.black),
          .barTintColor(Color(red: 10, green: 11, blue: 12, alpha: 13)), .shadowImage(ImageRef(name: "s")),
          .tintColor(Color(red: 10, green: 11, blue: 12)),
          .titleTextAttributes(TitleTextAttributes(font: "Inter", size: 17, color: Color(red: 0, green: 0, blue: 0))),
          .translucent(false),
        ])),
    WireCase(
      json:
        #"{"op":"updateAppearance","target":"navigationBar","set":{"barStyle":null,"translucent":null,"titleTextAttributes":null}}"#,
      op: .updateAppearance(.navigationBar, [.barStyle(nil), .titleTextAttributes(nil), .translucent(nil)])),
    WireCase(json: ##"{"op":"setSceneTint","tintColor":"#ff000080"}"##, op: .setSceneTint(red50)),
    WireCase(json: #"{"op":"setSceneTint","tintColor":null}"#, op: .setSceneTint(nil)),
    WireCase(
      json: ##"{"op":"setDefaultItemTint","tintColor":"#00FF00"}"##,
      op: .setDefaultItemTint(Color(red: 0, green: 255, blue: 0))),
    WireCase(json: #"{"op":"setDefaultItemTint"}"#, op: .setDefaultItemTint(nil)),
  ]

  @Test("R6 every op reads from its wire form", arguments: wireCases)
  func decodes(_ testCase: WireCase) throws {
    #expect(try Fixtures.op(testCase.json) == testCase.op)
  }

  @Test("R6 the wire cases cover every op name")
  func coversEveryOp() {
    #expect(Set(Self.wireCases.map(\.op.name)) == Set(Op.names))
    #expect(Op.names.count == Set(Op.names).count)
  }

  @Test("R6 a list of ops reads in order; an error names the op's index in the list")
  func list() throws {
    let ops = try Fixtures.ops(
      ##"[{"op":"pop"},{"op":"popTo","item":"a"},{"op":"setSceneTint","tintColor":"#000000"}]"##)
    #expect(
      ops == [
        .pop(expectTop: nil, animated: false), .popTo("a", animated: false),
        .setSceneTint(Color(red: 0, green: 0, blue: 0)),
      ])
    #expect(try Fixtures.ops("[]") == [])

    let json = try JSONParser.parse(#"[{"op":"pop"},{"op":"pop"},{"op":"push","item":{"id":"a","title":5}}]"#)
    expectNavError(.invalidMutation, field: "ops[2].item.title", opIndex: 2) { () throws(NavError) in
      try Op.list(json: json)
    }
    let notObject = try JSONParser.parse(#"[{"op":"pop"},"pop"]"#)
    expectNavError(.invalidMutation, field: "ops[1]", opIndex: 1) { () throws(NavError) in
      try Op.list(json: notObject)
    }
    let notArray = try JSONParser.parse(#"{"op":"pop"}"#)
    expectNavError(.invalidMutation, field: "ops", opIndex: nil) { () throws(NavError) in try Op.list(json: notArray) }
  }
}
