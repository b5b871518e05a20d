import NavModel
import Testing

/// The state document: exact round trips, its documented shape, and decoding errors.
@Suite("State JSON")
struct StateJSONTests {
  /// Value → document → value, and value → bytes → document → value.
  func expectRoundTrip(_ state: SceneState, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let document = state.json
    #expect(try SceneState(json: document) == state, sourceLocation: sourceLocation)
    let text = JSONWriter.string(document)
    let reparsed = try JSONParser.parse(text)
    #expect(reparsed == document, sourceLocation: sourceLocation)
    #expect(try SceneState(json: reparsed) == state, sourceLocation: sourceLocation)
    #expect(JSONWriter.string(try SceneState(json: reparsed).json) == text, sourceLocation: sourceLocation)
  }

  @Test("R2 a new scene's document is exactly the documented one")
  func emptyDocument() throws {
    let documented = try JSONParser.parse(
      #"{"navigationBar":{"items":[],"hidden":false,"appearance":{"backgroundImages":[]}},"toolbar":{"items":[],"hidden":false,"appearance":{"backgroundImages":[]}},"barButtonItems":[],"appearanceDefaults":{"navigationBar":{"backgroundImages":[]},"toolbar":{"backgroundImages":[]}}}"#
    )
    #expect(SceneState.empty.json == documented)
    #expect(try SceneState(json: documented) == .empty)
    try expectRoundTrip(.empty)
  }

  @Test("R1 R68 a state with every field set round-trips exactly, through bytes too")
  func richRoundTrip() throws {
    let rich = Fixtures.richScene
    // Make sure the fixture really sets everything it claims to.
    #expect(rich.barButtonItems[Fixtures.fullButton.id] == Fixtures.fullButton)
    #expect(rich.navigationBar.hidden && rich.toolbar.hidden)
    #expect(rich.appearanceDefaults.navigationBar.backgroundImages.count == 3)
    #expect(rich.tintColor != nil && rich.appearanceDefaults.barButtonItemTintColor != nil)
    try expectRoundTrip(rich)
    try expectRoundTrip(Fixtures.scene)
  }

  @Test("R15 R39 unset optional fields are omitted; flags, arrays, style, enabled and tag are always present")
  func omitsUnset() throws {
    #expect(
      BarButtonItem(id: "x").json == ["id": "x", "style": "plain", "enabled": true, "tag": 0, "possibleTitles": []])
    #expect(
      NavigationItem(id: "n").json == [
        "id": "n", "hidesBackButton": false, "leftItemsSupplementBackButton": false, "leftBarButtonItems": [],
        "rightBarButtonItems": [],
      ])
    #expect(ImageRef(name: "i").json == ["name": "i", "opaque": true])
    #expect(CustomView(name: "v", width: 3).json == ["name": "v", "width": 3, "height": 30])
    #expect(TitleTextAttributes().json == [:])
  }

  @Test("R68 colours are written in canonical form")
  func canonicalColours() throws {
    var state = SceneState.empty
    state.tintColor = Color(hex: "#ff8000ff")
    state.appearanceDefaults.barButtonItemTintColor = Color(hex: "#abcdef80")
    let document = state.json
    #expect(document["tintColor"] == "#FF8000")
    #expect(document["appearanceDefaults"]?["barButtonItemTintColor"] == "#ABCDEF80")
  }

  @Test("R15 R39 defaults are read for absent fields")
  func readsDefaults() throws {
    let document = try JSONParser.parse(
      #"""
      {"navigationBar":{"items":[{"id":"a"}]},"toolbar":{},
       "barButtonItems":[{"id":"x"},{"id":"y","image":{"name":"i"},"customView":{"name":"v","width":2}}]}
      """#)
    let state = try SceneState(json: document)
    #expect(state.navigationBar == NavigationBarState(items: [NavigationItem(id: "a")]))
    #expect(state.toolbar == ToolbarState())
    #expect(
      state.barButtonItems.items == [
        BarButtonItem(id: "x"),
        BarButtonItem(id: "y", image: ImageRef(name: "i"), customView: CustomView(name: "v", width: 2)),
      ])
    #expect(state.appearanceDefaults == AppearanceDefaults())
  }

  @Test("R51 R66 background images are read into one entry per position and metrics, in order")
  func backgroundImagesNormalised() throws {
    let document = try JSONParser.parse(
      #"""
      {"navigationBar":{"appearance":{"backgroundImages":[
        {"position":"topAttached","metrics":"compact","image":{"name":"c"}},
        {"position":"any","metrics":"default","image":{"name":"a"}},
        {"position":"topAttached","metrics":"compact","image":{"name":"c2"}}]}},
       "toolbar":{}}
      """#)
    let state = try SceneState(json: document)
    let images = state.navigationBar.appearance.backgroundImages
    #expect(images.map(\.image.name) == ["a", "c2"])
    try expectRoundTrip(state)
  }

  @Test("R69 a malformed state document names the exact field")
  func decodingErrors() throws {
    let cases: [(String, String?)] = [
      (#"[]"#, nil),
      (#"{"toolbar":{}}"#, "navigationBar"),
      (#"{"navigationBar":{},"toolbar":{},"version":3}"#, "version"),
      (#"{"navigationBar":{"items":{}},"toolbar":{}}"#, "navigationBar.items"),
      (
        #"{"navigationBar":{"items":[{"id":"a","leftBarButtonItems":[1]}]},"toolbar":{}}"#,
        "navigationBar.items[0].leftBarButtonItems[0]"
      ),
      (#"{"navigationBar":{"hidden":"no"},"toolbar":{}}"#, "navigationBar.hidden"),
      (#"{"navigationBar":{},"toolbar":{"items":[true]}}"#, "toolbar.items[0]"),
      (
        #"{"navigationBar":{},"toolbar":{},"barButtonItems":[{"id":"x"},{"id":"y","style":"big"}]}"#,
        "barButtonItems[1].style"
      ),
      (#"{"navigationBar":{},"toolbar":{},"barButtonItems":[{"title":"t"}]}"#, "barButtonItems[0].id"),
      (##"{"navigationBar":{},"toolbar":{},"tintColor":"#12"}"##, "tintColor"),
      (#"{"navigationBar":{"appearance":{"barStyle":"grey"}},"toolbar":{}}"#, "navigationBar.appearance.barStyle"),
      (
        #"{"navigationBar":{},"toolbar":{"appearance":{"backgroundImages":[{"position":"any","metrics":"default"}]}}}"#,
        "toolbar.appearance.backgroundImages[0].image"
      ),
      (#"{"navigationBar":{},"toolbar":{},"appearanceDefaults":{"window":{}}}"#, "appearanceDefaults.window"),
    ]
    for (text, field) in cases {
      let document = try JSONParser.parse(text)
      expectNavError(.invalidMutation, field: field, opIndex: nil) { () throws(NavError) in
        try SceneState(json: document)
      }
    }
  }

  @Test("R6 the state after every successful op of a long scripted session round-trips")
  func roundTripAfterEachOp() throws {
    let script: [Op] = [
      .defineBarButtonItem(Fixtures.fullButton),
      .push(
        NavigationItem(id: "thread", title: "Thread", rightBarButtonItems: [Fixtures.fullButton.id]), animated: true),
      .updateNavigationItem(
        "thread", [.prompt("Replying"), .titleView(CustomView(name: "t", width: 99.5))], animated: false),
      .setBarButtonItem(navigationItem: "thread", side: .left, item: "reply", animated: true),
      .insertBarButtonItem(navigationItem: "thread", side: .left, item: "share", before: "reply"),
      .moveBarButtonItem(navigationItem: "thread", side: .left, item: "reply", before: "share"),
      .updateBarButtonItem("add", [.image(ImageRef(name: "plus", opaque: false, width: 0.25))]),
      .updateAppearance(
        .navigationBar, [.backgroundImage(ImageRef(name: "x"), position: .bottom, metrics: .compactPrompt)]),
      .updateAppearance(.defaultToolbar, [.translucent(true), .barStyle(.black)]),
      .setSceneTint(Color(hex: "#01020304")),
      .setDefaultItemTint(Color(hex: "#FFFFFF")),
      .setBarHidden(.toolbar, hidden: true, animated: true),
      .deleteBarButtonItem("share"),
      .popTo("inbox", animated: true),
      .setToolbarItems(["reply", "flex", Fixtures.fullButton.id], animated: false),
      .setStack([], animated: false),
    ]
    var state = Fixtures.scene
    for op in script {
      state = try state.applying(op).state
      try expectRoundTrip(state)
    }
  }
}
