import NavModel
import Testing

/// Every way a wire op can be malformed, each with its code and exact field.
@Suite("Op decoding errors")
struct OpDecodingErrorTests {
  // MARK: - Unknown names

  @Test("R69 an unknown op name is InvalidMutation, and the message lists every accepted name")
  func unknownOp() throws {
    let error = expectDecodingFailure(#"{"op":"shove","item":"a"}"#, field: "ops[0].op")
    #expect(error?.value == "shove")
    for name in Op.names { #expect(error?.message.contains(name) == true, "message lacks \(name)") }
    // Op names are case-sensitive.
    expectDecodingFailure(#"{"op":"Push","item":{"id":"a"}}"#, field: "ops[0].op")
  }

  @Test("R69 an op without a name, or not an object, is InvalidMutation")
  func missingName() {
    expectDecodingFailure(#"{"item":"a"}"#, field: "ops[0].op")
    expectDecodingFailure(#"{"op":null}"#, field: "ops[0].op")
    expectDecodingFailure(#"{"op":5}"#, field: "ops[0].op")
    expectDecodingFailure(#"["pop"]"#, field: "ops[0]")
    expectDecodingFailure(#""pop""#, field: "ops[0]")
  }

  @Test("R69 an unknown field is InvalidMutation, and the message lists the accepted fields")
  func unknownField() {
    let error = expectDecodingFailure(#"{"op":"pop","force":true}"#, field: "ops[0].force")
    #expect(error?.message.contains("animated, expectTop, op") == true, "\(String(describing: error))")
    // insertBarButtonItem has no animated flag.
    expectDecodingFailure(
      #"{"op":"insertBarButtonItem","item":"a","side":"left","barButtonItem":"x","animated":true}"#,
      field: "ops[0].animated")
    expectDecodingFailure(#"{"op":"push","item":{"id":"a","colour":"red"}}"#, field: "ops[0].item.colour")
    expectDecodingFailure(
      #"{"op":"push","item":{"id":"a","titleView":{"name":"v","width":1,"depth":2}}}"#,
      field: "ops[0].item.titleView.depth")
    // The arrays and the id are not fields an update can set.
    expectDecodingFailure(
      #"{"op":"updateNavigationItem","item":"a","set":{"leftBarButtonItems":[]}}"#,
      field: "ops[0].set.leftBarButtonItems")
    expectDecodingFailure(#"{"op":"updateNavigationItem","item":"a","set":{"id":"b"}}"#, field: "ops[0].set.id")
    expectDecodingFailure(#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"id":"y"}}"#, field: "ops[0].set.id")
    expectDecodingFailure(
      #"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"image":{"name":"i","alpha":1}}}"#,
      field: "ops[0].set.image.alpha")
    expectDecodingFailure(
      #"{"op":"updateAppearance","target":"toolbar","set":{"backgroundImage":null}}"#,
      field: "ops[0].set.backgroundImage")
    expectDecodingFailure(
      #"{"op":"updateAppearance","target":"toolbar","set":{"backgroundImages":[{"position":"any","metrics":"default","image":null,"x":1}]}}"#,
      field: "ops[0].set.backgroundImages[0].x")
    expectDecodingFailure(
      #"{"op":"updateAppearance","target":"toolbar","set":{"titleTextAttributes":{"weight":"bold"}}}"#,
      field: "ops[0].set.titleTextAttributes.weight")
    expectDecodingFailure(
      #"{"op":"defineBarButtonItem","barButtonItem":{"id":"x","target":"self"}}"#, field: "ops[0].barButtonItem.target")
  }

  // MARK: - Types

  @Test("R69 a value of the wrong type is InvalidMutation at its exact field")
  func wrongTypes() {
    let cases: [(String, String)] = [
      (#"{"op":"popTo","item":5}"#, "ops[0].item"),
      (#"{"op":"pop","animated":"yes"}"#, "ops[0].animated"),
      (#"{"op":"pop","expectTop":["a"]}"#, "ops[0].expectTop"),
      (#"{"op":"push","item":"a"}"#, "ops[0].item"),
      (#"{"op":"push","item":{"id":7}}"#, "ops[0].item.id"),
      (#"{"op":"push","item":{"id":"a","hidesBackButton":1}}"#, "ops[0].item.hidesBackButton"),
      (#"{"op":"push","item":{"id":"a","rightBarButtonItems":"x"}}"#, "ops[0].item.rightBarButtonItems"),
      (#"{"op":"push","item":{"id":"a","leftBarButtonItems":["x",2]}}"#, "ops[0].item.leftBarButtonItems[1]"),
      (#"{"op":"setStack","items":{}}"#, "ops[0].items"),
      (#"{"op":"setStack","items":[{"id":"a"},[]]}"#, "ops[0].items[1]"),
      (#"{"op":"setBarButtonItems","item":"a","side":"left","items":["x",true]}"#, "ops[0].items[1]"),
      (#"{"op":"setBarButtonItem","item":"a","side":"left","barButtonItem":{}}"#, "ops[0].barButtonItem"),
      (#"{"op":"setToolbarItems","items":"x"}"#, "ops[0].items"),
      (#"{"op":"updateNavigationItem","item":"a","set":[]}"#, "ops[0].set"),
      (#"{"op":"updateNavigationItem","item":"a","set":{"title":3}}"#, "ops[0].set.title"),
      (#"{"op":"updateNavigationItem","item":"a","set":{"titleView":{"name":"v"}}}"#, "ops[0].set.titleView.width"),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"width":"10"}}"#, "ops[0].set.width"),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"tag":1.5}}"#, "ops[0].set.tag"),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"tag":18014398509481984}}"#, "ops[0].set.tag"),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"tag":"1"}}"#, "ops[0].set.tag"),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"possibleTitles":"x"}}"#, "ops[0].set.possibleTitles"),
      (
        #"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"possibleTitles":[1]}}"#,
        "ops[0].set.possibleTitles[0]"
      ),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"image":5}}"#, "ops[0].set.image"),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"image":{"opaque":true}}}"#, "ops[0].set.image.name"),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"enabled":"false"}}"#, "ops[0].set.enabled"),
      (#"{"op":"defineBarButtonItem","barButtonItem":{"id":"x","tag":0.5}}"#, "ops[0].barButtonItem.tag"),
      (
        #"{"op":"defineBarButtonItem","barButtonItem":{"id":"x","customView":{"name":"v","width":"wide"}}}"#,
        "ops[0].barButtonItem.customView.width"
      ),
      (#"{"op":"setBarHidden","bar":"toolbar","hidden":"true"}"#, "ops[0].hidden"),
      (#"{"op":"updateAppearance","target":"toolbar","set":{"translucent":0}}"#, "ops[0].set.translucent"),
      (#"{"op":"updateAppearance","target":"toolbar","set":{"backgroundImages":{}}}"#, "ops[0].set.backgroundImages"),
      (
        #"{"op":"updateAppearance","target":"toolbar","set":{"backgroundImages":[5]}}"#,
        "ops[0].set.backgroundImages[0]"
      ),
      (
        #"{"op":"updateAppearance","target":"toolbar","set":{"titleTextAttributes":{"size":"big"}}}"#,
        "ops[0].set.titleTextAttributes.size"
      ),
      (#"{"op":"setSceneTint","tintColor":255}"#, "ops[0].tintColor"),
    ]
    for (json, field) in cases { expectDecodingFailure(json, field: field) }
  }

  @Test("R69 null for a field that cannot be null is InvalidMutation")
  func nullForNonNullable() {
    let cases: [(String, String)] = [
      (#"{"op":"popTo","item":null}"#, "ops[0].item"),
      (#"{"op":"push","item":null}"#, "ops[0].item"),
      (#"{"op":"push","item":{"id":null}}"#, "ops[0].item.id"),
      (#"{"op":"setStack","items":null}"#, "ops[0].items"),
      (#"{"op":"setBarButtonItems","item":"a","side":"left","items":null}"#, "ops[0].items"),
      (#"{"op":"setBarButtonItems","item":"a","side":null,"items":[]}"#, "ops[0].side"),
      (#"{"op":"insertBarButtonItem","item":"a","side":"left","barButtonItem":null}"#, "ops[0].barButtonItem"),
      (#"{"op":"setToolbarItems","items":null}"#, "ops[0].items"),
      (#"{"op":"deleteBarButtonItem","barButtonItem":null}"#, "ops[0].barButtonItem"),
      (#"{"op":"defineBarButtonItem","barButtonItem":null}"#, "ops[0].barButtonItem"),
      (#"{"op":"updateNavigationItem","item":"a","set":null}"#, "ops[0].set"),
      (#"{"op":"updateNavigationItem","item":"a","set":{"hidesBackButton":null}}"#, "ops[0].set.hidesBackButton"),
      (
        #"{"op":"updateNavigationItem","item":"a","set":{"leftItemsSupplementBackButton":null}}"#,
        "ops[0].set.leftItemsSupplementBackButton"
      ),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"style":null}}"#, "ops[0].set.style"),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"tag":null}}"#, "ops[0].set.tag"),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"enabled":null}}"#, "ops[0].set.enabled"),
      (#"{"op":"setBarHidden","bar":"toolbar","hidden":null}"#, "ops[0].hidden"),
      (#"{"op":"setBarHidden","bar":null,"hidden":true}"#, "ops[0].bar"),
      (#"{"op":"updateAppearance","target":null,"set":{}}"#, "ops[0].target"),
      (#"{"op":"updateAppearance","target":"toolbar","set":{"backgroundImages":null}}"#, "ops[0].set.backgroundImages"),
      (
        #"{"op":"updateAppearance","target":"toolbar","set":{"backgroundImages":[{"position":null,"metrics":"default"}]}}"#,
        "ops[0].set.backgroundImages[0].position"
      ),
    ]
    for (json, field) in cases { expectDecodingFailure(json, field: field) }
  }

  // MARK: - Enumerations

  @Test("R40 the system items are exactly the documented list")
  func systemItemList() {
    #expect(
      SystemItem.allCases.map(\.rawValue) == [
        "done", "cancel", "edit", "save", "add", "flexibleSpace", "fixedSpace", "compose", "reply", "action",
        "organize",
        "bookmarks", "search", "refresh", "stop", "camera", "trash", "play", "pause", "rewind", "fastForward", "undo",
        "redo",
        "pageCurl", "close",
      ])
  }

  @Test("R40 every system item name reads back", arguments: SystemItem.allCases)
  func systemItemNames(_ item: SystemItem) throws {
    let op = try Fixtures.op(
      #"{"op":"defineBarButtonItem","barButtonItem":{"id":"x","systemItem":"\#(item.rawValue)"}}"#)
    #expect(op == .defineBarButtonItem(BarButtonItem(id: "x", systemItem: item)))
  }

  @Test("R40 R69 a wrong system item name is InvalidMutation and the message lists the names")
  func wrongSystemItem() {
    for name in ["doneButton", "Done", "", "flexible", "landscape"] {
      let error = expectDecodingFailure(
        #"{"op":"defineBarButtonItem","barButtonItem":{"id":"x","systemItem":"\#(name)"}}"#,
        field: "ops[0].barButtonItem.systemItem")
      #expect(error?.value == name)
      for item in SystemItem.allCases { #expect(error?.message.contains(item.rawValue) == true) }
    }
    expectDecodingFailure(
      #"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"systemItem":"doneButton"}}"#,
      field: "ops[0].set.systemItem")
  }

  @Test("R50 R69 a wrong enumeration value is InvalidMutation naming the field and the value")
  func wrongEnumValues() {
    let cases: [(String, String, String)] = [
      (#"{"op":"setBarButtonItems","item":"a","side":"middle","items":[]}"#, "ops[0].side", "middle"),
      (#"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"style":"fancy"}}"#, "ops[0].set.style", "fancy"),
      (
        #"{"op":"defineBarButtonItem","barButtonItem":{"id":"x","style":"Plain"}}"#, "ops[0].barButtonItem.style",
        "Plain"
      ),
      (#"{"op":"setBarHidden","bar":"statusBar","hidden":true}"#, "ops[0].bar", "statusBar"),
      (#"{"op":"updateAppearance","target":"window","set":{}}"#, "ops[0].target", "window"),
      (
        #"{"op":"updateAppearance","target":"toolbar","set":{"barStyle":"blackTranslucent"}}"#, "ops[0].set.barStyle",
        "blackTranslucent"
      ),
      (
        #"{"op":"updateAppearance","target":"toolbar","set":{"backgroundImages":[{"position":"left","metrics":"default"}]}}"#,
        "ops[0].set.backgroundImages[0].position", "left"
      ),
      // UIKit's deprecated metrics names are not accepted (R50).
      (
        #"{"op":"updateAppearance","target":"toolbar","set":{"backgroundImages":[{"position":"any","metrics":"landscapePhone"}]}}"#,
        "ops[0].set.backgroundImages[0].metrics", "landscapePhone"
      ),
      (
        #"{"op":"updateAppearance","target":"toolbar","set":{"backgroundImages":[{"position":"any","metrics":"landscapePhonePrompt"}]}}"#,
        "ops[0].set.backgroundImages[0].metrics", "landscapePhonePrompt"
      ),
    ]
    for (json, field, value) in cases {
      let error = expectDecodingFailure(json, field: field)
      #expect(error?.value == value)
    }
  }

  // MARK: - Colours

  @Test("R66 R68 colours are #RRGGBB or #RRGGBBAA in either case, kept in canonical form")
  func colours() throws {
    let cases: [(String, Color, String)] = [
      ("#ff000080", Color(red: 255, green: 0, blue: 0, alpha: 0x80), "#FF000080"),
      ("#00ff00ff", Color(red: 0, green: 255, blue: 0), "#00FF00"),
      ("#aBcDeF", Color(red: 0xAB, green: 0xCD, blue: 0xEF), "#ABCDEF"),
      ("#00000000", Color(red: 0, green: 0, blue: 0, alpha: 0), "#00000000"),
      ("#FFFFFF", .white, "#FFFFFF"),
    ]
    for (text, color, canonical) in cases {
      #expect(try Fixtures.op(#"{"op":"setSceneTint","tintColor":"\#(text)"}"#) == .setSceneTint(color))
      #expect(color.hex == canonical)
      #expect(Color(hex: canonical) == color)
    }
  }

  @Test("R66 an invalid colour is InvalidMutation naming the field and the value")
  func invalidColours() {
    for text in [
      "#12345", "#1234567", "#123456789", "red", "123456", "#GGGGGG", "#12 456", " #123456", "#", "", "#ＡＢＣＤＥＦ",
      "#12345é",
    ] {
      let error = expectDecodingFailure(#"{"op":"setSceneTint","tintColor":"\#(text)"}"#, field: "ops[0].tintColor")
      #expect(error?.value == text)
    }
    expectDecodingFailure(#"{"op":"setDefaultItemTint","tintColor":"blue"}"#, field: "ops[0].tintColor")
    expectDecodingFailure(
      ##"{"op":"updateBarButtonItem","barButtonItem":"x","set":{"tintColor":"#12"}}"##, field: "ops[0].set.tintColor")
    expectDecodingFailure(
      ##"{"op":"defineBarButtonItem","barButtonItem":{"id":"x","tintColor":"#12"}}"##,
      field: "ops[0].barButtonItem.tintColor")
    expectDecodingFailure(
      ##"{"op":"updateAppearance","target":"toolbar","set":{"barTintColor":"#12"}}"##, field: "ops[0].set.barTintColor")
    expectDecodingFailure(
      #"{"op":"updateAppearance","target":"toolbar","set":{"titleTextAttributes":{"color":"black"}}}"#,
      field: "ops[0].set.titleTextAttributes.color")
  }

  // MARK: - Decoding checks shape only

  @Test("R6 decoding checks shape; the rules are checked when the op is applied")
  func shapeOnly() throws {
    // A syntactically fine op naming nothing decodes, and fails only on apply.
    let op = try Fixtures.op(#"{"op":"popTo","item":"nowhere"}"#)
    expectFailure(.empty, [op], .itemNotFound, field: "ops[0].item")
    let long = try Fixtures.op(
      #"{"op":"defineBarButtonItem","barButtonItem":{"id":"x","title":"\#(Fixtures.text("a", 257))"}}"#)
    expectFailure(.empty, [long], .limitExceeded, field: "ops[0].barButtonItem.title")
  }

  @Test("R69 every error code is an io.navd Varlink error name")
  func errorCodes() {
    let documented: Set = [
      "CannotPopRoot", "Conflict", "DuplicateItem", "InvalidMutation", "ItemAlreadyOnStack", "ItemNotActivatable",
      "ItemNotFound", "LimitExceeded", "SceneNotFound",
    ]
    #expect(documented.isSubset(of: NavError.Code.allCases.map(\.rawValue)))
    let error = NavError(
      .limitExceeded, "too long", field: "ops[1].item.title", value: Fixtures.text("x", 100), limit: "stringMaxBytes",
      max: 256, opIndex: 1)
    #expect(error.value?.count == 80)
    #expect(error.parameters["field"] == "ops[1].item.title")
    #expect(error.parameters["max"] == 256)
    #expect(error.parameters["opIndex"] == 1)
    #expect(error.parameters["limit"] == "stringMaxBytes")
  }
}
