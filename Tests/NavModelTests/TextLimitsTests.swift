import NavModel
import Testing

/// Text limits: bytes not characters, names not empty, one line only.
@Suite("Text limits")
struct TextLimitsTests {
  // MARK: - Strings

  /// Strings of exactly 256 UTF-8 bytes, and the same plus one byte.
  static let boundaryStrings: [(atLimit: String, over: String)] = [
    (Fixtures.text("a", 256), Fixtures.text("a", 257)),
    // 2-byte characters: 128 characters are 256 bytes; 129 characters are too many.
    (Fixtures.text("é", 128), Fixtures.text("é", 128, tail: "a")),
    // 3-byte characters: 85 × 3 = 255, plus one ASCII byte is 256.
    (Fixtures.text("€", 85, tail: "a"), Fixtures.text("€", 85, tail: "ab")),
    // 4-byte characters: 64 emoji are 256 bytes though only 64 characters.
    (Fixtures.text("😀", 64), Fixtures.text("😀", 64, tail: "a")),
    // Combining marks count by bytes, not by grapheme: "e" + U+0301 is 3 bytes.
    (Fixtures.text("e\u{301}", 85, tail: "a"), Fixtures.text("e\u{301}", 85, tail: "ab")),
  ]

  @Test("R66 strings are at most 256 bytes of UTF-8, counted in bytes, not characters")
  func stringBytes() throws {
    for (atLimit, over) in Self.boundaryStrings {
      #expect(atLimit.utf8.count == 256)
      #expect(over.utf8.count == 257)
      let state = try Fixtures.scene.applying(.updateNavigationItem("inbox", [.title(atLimit)], animated: false)).state
      #expect(state.navigationBar.items[0].title == atLimit)
      let error = expectLimit(
        Fixtures.scene, [.updateNavigationItem("inbox", [.title(over)], animated: false)], limit: "stringMaxBytes",
        max: 256,
        field: "ops[0].set.title")
      #expect((error?.value?.count ?? 0) <= 80)
    }
  }

  @Test("R66 every text field has the string limit")
  func everyTextField() throws {
    let atLimit = Fixtures.text("ü", 128)
    let over = Fixtures.text("ü", 128, tail: "!")
    let scene = Fixtures.scene
    let cases: [(String) -> (Op, String)] = [
      { (.updateNavigationItem("inbox", [.prompt($0)], animated: false), "ops[0].set.prompt") },
      {
        (
          .updateNavigationItem("inbox", [.titleView(CustomView(name: $0, width: 1))], animated: false),
          "ops[0].set.titleView.name"
        )
      },
      { (.push(NavigationItem(id: "n", title: $0), animated: false), "ops[0].item.title") },
      { (.push(NavigationItem(id: "n", prompt: $0), animated: false), "ops[0].item.prompt") },
      { (.setStack([NavigationItem(id: "n", title: $0)], animated: false), "ops[0].items[0].title") },
      { (.defineBarButtonItem(BarButtonItem(id: "x", title: $0)), "ops[0].barButtonItem.title") },
      { (.defineBarButtonItem(BarButtonItem(id: "x", action: $0)), "ops[0].barButtonItem.action") },
      {
        (
          .defineBarButtonItem(BarButtonItem(id: "x", possibleTitles: ["a", $0])),
          "ops[0].barButtonItem.possibleTitles[1]"
        )
      },
      { (.defineBarButtonItem(BarButtonItem(id: "x", image: ImageRef(name: $0))), "ops[0].barButtonItem.image.name") },
      {
        (
          .defineBarButtonItem(BarButtonItem(id: "x", customView: CustomView(name: $0, width: 1))),
          "ops[0].barButtonItem.customView.name"
        )
      },
      { (.updateBarButtonItem("share", [.title($0)]), "ops[0].set.title") },
      { (.updateBarButtonItem("share", [.action($0)]), "ops[0].set.action") },
      { (.updateBarButtonItem("share", [.possibleTitles([$0])]), "ops[0].set.possibleTitles[0]") },
      { (.updateAppearance(.navigationBar, [.shadowImage(ImageRef(name: $0))]), "ops[0].set.shadowImage.name") },
      {
        (
          .updateAppearance(.defaultNavigationBar, [.titleTextAttributes(TitleTextAttributes(font: $0))]),
          "ops[0].set.titleTextAttributes.font"
        )
      },
    ]
    for makeCase in cases {
      let (passing, _) = makeCase(atLimit)
      _ = try scene.applying(passing)
      let (failing, field) = makeCase(over)
      expectLimit(scene, [failing], limit: "stringMaxBytes", max: 256, field: field)
    }
  }

  @Test("R66 names (action, image and view names, font) are 1 to 256 bytes; empty is InvalidMutation")
  func emptyNames() throws {
    let scene = Fixtures.scene
    let cases: [(String) -> (Op, String)] = [
      { (.defineBarButtonItem(BarButtonItem(id: "x", action: $0)), "ops[0].barButtonItem.action") },
      { (.updateBarButtonItem("share", [.action($0)]), "ops[0].set.action") },
      { (.updateBarButtonItem("share", [.image(ImageRef(name: $0))]), "ops[0].set.image.name") },
      { (.updateBarButtonItem("share", [.customView(CustomView(name: $0, width: 1))]), "ops[0].set.customView.name") },
      {
        (
          .updateNavigationItem("inbox", [.titleView(CustomView(name: $0, width: 1))], animated: false),
          "ops[0].set.titleView.name"
        )
      },
      { (.updateAppearance(.toolbar, [.shadowImage(ImageRef(name: $0))]), "ops[0].set.shadowImage.name") },
      {
        (
          .updateAppearance(.navigationBar, [.titleTextAttributes(TitleTextAttributes(font: $0))]),
          "ops[0].set.titleTextAttributes.font"
        )
      },
    ]
    for makeCase in cases {
      _ = try scene.applying(makeCase("a").0)
      let (op, field) = makeCase("")
      expectFailure(scene, [op], .invalidMutation, field: field)
    }
    // Titles and prompts may be empty.
    let empty = try scene.applying(.updateNavigationItem("inbox", [.title(""), .prompt("")], animated: false))
    #expect(empty.state.navigationBar.items[0].title == "")
    #expect(
      try scene.applying(.updateBarButtonItem("share", [.title(""), .possibleTitles([""])])).state.barButtonItems[
        "share"]?.title == "")
  }

  static let controlCharacters: [Unicode.Scalar] = ["\u{0}", "\u{9}", "\u{A}", "\u{D}", "\u{1B}", "\u{1F}", "\u{7F}"]

  @Test("R67 text holds no control character U+0000–U+001F or U+007F")
  func controlCharactersRejected() throws {
    let scene = Fixtures.scene
    for scalar in Self.controlCharacters {
      let text = "a\(Character(scalar))b"
      expectFailure(
        scene, [.updateNavigationItem("inbox", [.title(text)], animated: false)], .invalidMutation,
        field: "ops[0].set.title")
      expectFailure(
        scene, [.updateNavigationItem("inbox", [.prompt(text)], animated: false)], .invalidMutation,
        field: "ops[0].set.prompt")
      expectFailure(
        scene, [.push(NavigationItem(id: "n", title: text), animated: false)], .invalidMutation,
        field: "ops[0].item.title")
      expectFailure(scene, [.updateBarButtonItem("share", [.title(text)])], .invalidMutation, field: "ops[0].set.title")
      expectFailure(
        scene, [.updateBarButtonItem("share", [.action(text)])], .invalidMutation, field: "ops[0].set.action")
      expectFailure(
        scene, [.updateBarButtonItem("share", [.possibleTitles(["ok", text])])], .invalidMutation,
        field: "ops[0].set.possibleTitles[1]")
      expectFailure(
        scene, [.updateBarButtonItem("share", [.image(ImageRef(name: text))])], .invalidMutation,
        field: "ops[0].set.image.name")
    }
    // Characters just outside the range, and other "invisible" ones, are text.
    for text in ["\u{20}", "~", "\u{80}", "\u{85}", "\u{A0}", "\u{2028}", "\u{200B}"] {
      let result = try scene.applying(.updateNavigationItem("inbox", [.title("a\(text)b")], animated: false))
      #expect(result.state.navigationBar.items[0].title == "a\(text)b")
    }
  }
}
