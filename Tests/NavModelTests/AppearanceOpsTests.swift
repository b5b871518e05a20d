import NavModel
import Testing

/// updateAppearance on each target, the scene tint and the default item tint.
@Suite("Appearance ops")
struct AppearanceOpsTests {
  let before = Fixtures.scene

  /// The appearance `target` names in `state`.
  static func appearance(_ target: AppearanceTarget, in state: SceneState) -> BarAppearance {
    switch target {
    case .navigationBar: state.navigationBar.appearance
    case .toolbar: state.toolbar.appearance
    case .defaultNavigationBar: state.appearanceDefaults.navigationBar
    case .defaultToolbar: state.appearanceDefaults.toolbar
    }
  }

  static func set(_ appearance: BarAppearance, _ target: AppearanceTarget, in state: inout SceneState) {
    switch target {
    case .navigationBar: state.navigationBar.appearance = appearance
    case .toolbar: state.toolbar.appearance = appearance
    case .defaultNavigationBar: state.appearanceDefaults.navigationBar = appearance
    case .defaultToolbar: state.appearanceDefaults.toolbar = appearance
    }
  }

  static let allFields: [AppearanceField] = [
    .barStyle(.black), .tintColor(Color(red: 1, green: 2, blue: 3)),
    .barTintColor(Color(red: 4, green: 5, blue: 6, alpha: 7)),
    .translucent(false), .backgroundImage(ImageRef(name: "bg", opaque: false), position: .top, metrics: .compact),
    .shadowImage(ImageRef(name: "line", width: 1, height: 1)),
    .titleTextAttributes(TitleTextAttributes(font: "Inter", size: 17, color: Color(red: 0, green: 0, blue: 0))),
  ]

  @Test(
    "R48 updateAppearance sets every field of the target it names and nothing else",
    arguments: AppearanceTarget.allCases)
  func setsEveryField(_ target: AppearanceTarget) throws {
    let result = try before.applying(.updateAppearance(target, Self.allFields))
    var appearance = BarAppearance(
      barStyle: .black, tintColor: Color(red: 1, green: 2, blue: 3),
      barTintColor: Color(red: 4, green: 5, blue: 6, alpha: 7),
      translucent: false, shadowImage: ImageRef(name: "line", width: 1, height: 1),
      titleTextAttributes: TitleTextAttributes(font: "Inter", size: 17, color: Color(red: 0, green: 0, blue: 0)))
    appearance.setBackgroundImage(ImageRef(name: "bg", opaque: false), position: .top, metrics: .compact)
    var expected = before
    Self.set(appearance, target, in: &expected)
    #expect(result.state == expected)
    #expect(result.events == [])
  }

  @Test("R48 nil clears an appearance field so it inherits again", arguments: AppearanceTarget.allCases)
  func nilClears(_ target: AppearanceTarget) throws {
    var state = before
    Self.set(Fixtures.appearance(7), target, in: &state)
    let result = try state.applying(
      .updateAppearance(
        target,
        [
          .barStyle(nil), .tintColor(nil), .barTintColor(nil), .translucent(nil), .shadowImage(nil),
          .titleTextAttributes(nil),
          .backgroundImage(nil, position: .any, metrics: .default),
          .backgroundImage(nil, position: .topAttached, metrics: .compact),
          .backgroundImage(nil, position: .top, metrics: .defaultPrompt),
        ]))
    #expect(result.state == before)
    #expect(Self.appearance(target, in: result.state) == BarAppearance())
  }

  @Test("R51 R66 background images are kept one per position and metrics, in a fixed order")
  func backgroundImages() throws {
    let result = try before.applying(
      .updateAppearance(
        .navigationBar,
        [
          .backgroundImage(ImageRef(name: "c"), position: .topAttached, metrics: .default),
          .backgroundImage(ImageRef(name: "a"), position: .any, metrics: .compactPrompt),
          .backgroundImage(ImageRef(name: "b"), position: .any, metrics: .default),
          .backgroundImage(ImageRef(name: "b2"), position: .any, metrics: .default),
        ]))
    let images = result.state.navigationBar.appearance.backgroundImages
    #expect(images.map(\.image.name) == ["b2", "a", "c"])
    #expect(images.map(\.position) == [.any, .any, .topAttached])
    #expect(images.map(\.metrics) == [.default, .compactPrompt, .default])
    #expect(result.state.navigationBar.appearance.backgroundImage(position: .any, metrics: .default)?.name == "b2")

    let removed = try result.state.applying(
      .updateAppearance(.navigationBar, [.backgroundImage(nil, position: .any, metrics: .compactPrompt)]))
    #expect(removed.state.navigationBar.appearance.backgroundImages.map(\.image.name) == ["b2", "c"])
    // Removing an image that is not there is not an error.
    let again = try removed.state.applying(
      .updateAppearance(.navigationBar, [.backgroundImage(nil, position: .bottom, metrics: .compact)]))
    #expect(again.state == removed.state)
  }

  @Test("R48 updateAppearance leaves fields it does not name as they were")
  func partialUpdate() throws {
    var state = before
    state.toolbar.appearance = Fixtures.appearance(9)
    let result = try state.applying(.updateAppearance(.toolbar, [.translucent(true)]))
    var expected = state
    expected.toolbar.appearance.translucent = true
    #expect(result.state == expected)
  }

  @Test("R66 appearance sizes and image sizes are checked")
  func appearanceErrors() {
    for size: Double in [-1, -0.5, -.infinity, .nan, .infinity] {
      expectFailure(
        before, [.updateAppearance(.navigationBar, [.titleTextAttributes(TitleTextAttributes(size: size))])],
        .invalidMutation, field: "ops[0].set.titleTextAttributes.size")
    }
    expectFailure(
      before, [.updateAppearance(.toolbar, [.shadowImage(ImageRef(name: "s", width: -1))])], .invalidMutation,
      field: "ops[0].set.shadowImage.width")
    expectFailure(
      before,
      [.updateAppearance(.defaultToolbar, [.titleTextAttributes(TitleTextAttributes(font: Fixtures.text("f", 257)))])],
      .limitExceeded, field: "ops[0].set.titleTextAttributes.font")
    expectFailure(
      before, [.updateAppearance(.navigationBar, [.titleTextAttributes(TitleTextAttributes(size: 10_001))])],
      .limitExceeded,
      field: "ops[0].set.titleTextAttributes.size")
  }

  @Test("R66 titleTextAttributes size is 0 to 10000")
  func titleSizeBounds() throws {
    for size in [0, 0.5, 17, 10_000] {
      let result = try before.applying(
        .updateAppearance(.navigationBar, [.titleTextAttributes(TitleTextAttributes(size: size))]))
      #expect(result.state.navigationBar.appearance.titleTextAttributes?.size == size)
    }
  }

  @Test("R56 setSceneTint sets and clears the scene's tint")
  func sceneTint() throws {
    let red = Color(red: 255, green: 0, blue: 0)
    let set = try before.applying(.setSceneTint(red))
    var expected = before
    expected.tintColor = red
    #expect(set.state == expected)
    #expect(set.events == [])
    let cleared = try set.state.applying(.setSceneTint(nil))
    #expect(cleared.state == before)
  }

  @Test("R56 setDefaultItemTint sets and clears the bar button item appearance default")
  func defaultItemTint() throws {
    let green = Color(red: 0, green: 255, blue: 0, alpha: 128)
    let set = try before.applying(.setDefaultItemTint(green))
    var expected = before
    expected.appearanceDefaults.barButtonItemTintColor = green
    #expect(set.state == expected)
    #expect(set.events == [])
    let cleared = try set.state.applying(.setDefaultItemTint(nil))
    #expect(cleared.state == before)
  }
}
