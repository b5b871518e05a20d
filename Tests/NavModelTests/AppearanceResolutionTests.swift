import NavModel
import Testing

/// Appearance resolution (SEMANTICS R48–R56), as tables over the combinations.
@Suite("Appearance resolution")
struct AppearanceResolutionTests {
  typealias S = LayoutScenes

  enum Background: CaseIterable { case none, opaque, translucent }
  enum Place: CaseIterable { case bar, defaults }

  struct Case: CustomStringConvertible {
    var bar: Bar
    var place: Place
    var translucent: Bool?
    var background: Background
    var barTintColor: Color?
    var barStyle: BarStyle?

    var description: String {
      "\(bar) via \(place): translucent=\(String(describing: translucent)) image=\(background) "
        + "barTint=\(barTintColor?.hex ?? "nil") style=\(barStyle?.rawValue ?? "nil")"
    }

    static var all: [Case] {
      var cases: [Case] = []
      for bar in Bar.allCases {
        for place in Place.allCases {
          for translucent in [nil, true, false] as [Bool?] {
            for background in Background.allCases {
              for barTintColor in [nil, S.grey] as [Color?] {
                for barStyle in [nil, .default, .black] as [BarStyle?] {
                  cases.append(
                    Case(
                      bar: bar, place: place, translucent: translucent, background: background,
                      barTintColor: barTintColor, barStyle: barStyle))
                }
              }
            }
          }
        }
      }
      return cases
    }

    var image: ImageRef? {
      switch background {
      case .none: nil
      case .opaque: ImageRef(name: "wood", opaque: true)
      case .translucent: ImageRef(name: "glass", opaque: false)
      }
    }

    var state: SceneState {
      var appearance = BarAppearance(
        barStyle: barStyle, barTintColor: barTintColor, translucent: translucent,
        shadowImage: ImageRef(name: "line", opaque: false))
      appearance.setBackgroundImage(image, position: .any, metrics: .default)
      var state = SceneState.empty
      switch (bar, place) {
      case (.navigationBar, .bar): state.navigationBar.appearance = appearance
      case (.navigationBar, .defaults): state.appearanceDefaults.navigationBar = appearance
      case (.toolbar, .bar): state.toolbar.appearance = appearance
      case (.toolbar, .defaults): state.appearanceDefaults.toolbar = appearance
      }
      return state
    }

    func resolved(_ layout: Layout) -> ResolvedAppearance {
      bar == .navigationBar ? layout.navigationBar.appearance : layout.toolbar.appearance
    }

    var expectTranslucent: Bool { translucent ?? image.map { !$0.opaque } ?? true }

    var expectBackgroundColor: Color? {
      let base = barTintColor ?? (barStyle == .black ? Color.black : Color.white)
      if !expectTranslucent {
        var opaque = base
        opaque.alpha = 255
        return opaque
      }
      return image == nil ? base : nil
    }
  }

  @Test(
    "R48 R49 R52 R53 R54 R55 translucency, background colour, image opacity and shadow over every combination",
    arguments: Case.all)
  func appearanceTable(_ row: Case) {
    let appearance = row.resolved(LayoutResolver.resolve(row.state))
    #expect(appearance.barStyle == (row.barStyle ?? .default), "\(row)")
    #expect(appearance.translucent == row.expectTranslucent, "\(row)")
    #expect(appearance.backgroundColor == row.expectBackgroundColor, "\(row)")
    #expect(appearance.backgroundImage?.image == row.image, "\(row)")
    if let image = appearance.backgroundImage {
      #expect(image.position == .any && image.metrics == .default, "\(row)")
      #expect(image.opacity == (row.translucent == true && row.background == .opaque ? 0.9 : 1), "\(row)")
    }
    #expect(appearance.shadowImage == (row.image == nil ? nil : ImageRef(name: "line", opaque: false)), "\(row)")
    #expect(appearance.tint == .systemBlue, "\(row)")
  }

  @Test("R48 the table covers all 216 combinations")
  func tableSize() {
    #expect(Case.all.count == 2 * 2 * 3 * 3 * 2 * 3)
  }

  @Test("R48 a bar's own value wins over the appearance defaults, field by field")
  func ownOverDefaults() {
    var state = SceneState.empty
    state.appearanceDefaults.navigationBar = BarAppearance(barStyle: .black, barTintColor: S.red, translucent: false)
    state.navigationBar.appearance = BarAppearance(barTintColor: S.green)
    let appearance = LayoutResolver.resolve(state).navigationBar.appearance
    #expect(appearance.barStyle == .black)
    #expect(appearance.translucent == false)
    #expect(appearance.backgroundColor == S.green)
    // The toolbar inherits nothing from the navigation bar's defaults.
    let toolbar = LayoutResolver.resolve(state).toolbar.appearance
    #expect(toolbar.barStyle == .default && toolbar.translucent && toolbar.backgroundColor == .white)
  }

  @Test("R48 background images inherit per (position, metrics) pair")
  func backgroundImagesPerPair() {
    var state = SceneState.empty
    state.appearanceDefaults.navigationBar.setBackgroundImage(
      ImageRef(name: "d-any"), position: .any, metrics: .default)
    state.appearanceDefaults.navigationBar.setBackgroundImage(
      ImageRef(name: "d-top"), position: .top, metrics: .default)
    state.navigationBar.appearance.setBackgroundImage(ImageRef(name: "b-any"), position: .any, metrics: .default)
    // (top, default) is looked up before (any, default), and only the defaults set it.
    #expect(LayoutResolver.resolve(state).navigationBar.appearance.backgroundImage?.image.name == "d-top")
    state.navigationBar.appearance.setBackgroundImage(ImageRef(name: "b-top"), position: .top, metrics: .default)
    #expect(LayoutResolver.resolve(state).navigationBar.appearance.backgroundImage?.image.name == "b-top")
    state.navigationBar.appearance.setBackgroundImage(nil, position: .top, metrics: .default)
    state.appearanceDefaults.navigationBar.setBackgroundImage(nil, position: .top, metrics: .default)
    #expect(LayoutResolver.resolve(state).navigationBar.appearance.backgroundImage?.image.name == "b-any")
  }

  @Test("R48 titleTextAttributes resolve for the navigation bar only")
  func titleTextAttributes() {
    var state = SceneState.empty
    let attributes = TitleTextAttributes(font: "Inter", size: 17, color: S.red)
    state.appearanceDefaults.navigationBar.titleTextAttributes = attributes
    state.toolbar.appearance.titleTextAttributes = attributes
    let layout = LayoutResolver.resolve(state)
    #expect(layout.navigationBar.appearance.titleTextAttributes == attributes)
    #expect(layout.toolbar.appearance.titleTextAttributes == nil)
    #expect(layout.toolbar.json["appearance"]?["titleTextAttributes"] == .null)
  }

  @Test("R50 R51 the navigation bar picks prompt metrics when a prompt is shown, compact when asked")
  func barMetricsSelection() {
    var state = LayoutScenes.scene([NavigationItem(id: "a", title: "A")])
    for metrics in BarMetrics.allCases {
      state.navigationBar.appearance.setBackgroundImage(
        ImageRef(name: metrics.rawValue), position: .any, metrics: metrics)
      state.toolbar.appearance.setBackgroundImage(ImageRef(name: metrics.rawValue), position: .any, metrics: metrics)
    }
    func names(prompt: String?, compact: Bool) -> (String?, String?) {
      var scene = state
      scene.navigationBar.items[0].prompt = prompt
      let layout = LayoutResolver.resolve(scene, metrics: LayoutMetrics(width: 320, compact: compact))
      return (
        layout.navigationBar.appearance.backgroundImage?.image.name,
        layout.toolbar.appearance.backgroundImage?.image.name
      )
    }
    #expect(names(prompt: nil, compact: false) == ("default", "default"))
    #expect(names(prompt: nil, compact: true) == ("compact", "compact"))
    #expect(names(prompt: "Pick", compact: false) == ("defaultPrompt", "default"))
    #expect(names(prompt: "Pick", compact: true) == ("compactPrompt", "compact"))
    // An empty prompt is not shown (R22), so it does not select prompt metrics.
    #expect(names(prompt: "", compact: false) == ("default", "default"))
    // Without metrics: not compact, default positions.
    #expect(LayoutResolver.resolve(state).navigationBar.appearance.backgroundImage?.metrics == .default)
  }

  @Test("R51 the lookup walks metrics outer, positions inner, and reports the key it found")
  func lookupChains() {
    typealias Entry = (BarPosition, BarMetrics)
    let cases: [(entries: [Entry], compact: Bool, prompt: Bool, position: BarPosition, expect: Entry?)] = [
      ([(.any, .default)], true, true, .topAttached, (.any, .default)),
      ([(.any, .default), (.top, .compact)], true, true, .topAttached, (.top, .compact)),
      ([(.top, .compact), (.any, .defaultPrompt)], true, true, .top, (.any, .defaultPrompt)),
      ([(.any, .compact), (.top, .default)], true, false, .top, (.any, .compact)),
      ([(.top, .default), (.topAttached, .default)], false, false, .topAttached, (.topAttached, .default)),
      ([(.top, .default)], false, false, .topAttached, (.top, .default)),
      ([(.topAttached, .default)], false, false, .top, nil),
      ([(.bottom, .default)], false, false, .top, nil),
      ([(.top, .compact)], false, false, .top, nil),
      ([(.top, .defaultPrompt)], true, false, .top, nil),
    ]
    for (entries, compact, prompt, position, expect) in cases {
      var state = LayoutScenes.scene([NavigationItem(id: "a", prompt: prompt ? "P" : nil)])
      for (p, m) in entries {
        state.navigationBar.appearance.setBackgroundImage(ImageRef(name: "\(p)-\(m)"), position: p, metrics: m)
      }
      let found = LayoutResolver.resolve(
        state, metrics: LayoutMetrics(width: 320, compact: compact, navigationBarPosition: position)
      ).navigationBar.appearance.backgroundImage
      #expect(
        found?.position == expect?.0 && found?.metrics == expect?.1, "\(entries) \(compact) \(prompt) \(position)")
      if let found { #expect(found.image.name == "\(found.position)-\(found.metrics)") }
    }
  }

  @Test("R51 the toolbar looks up bottom, then any; or top, then any")
  func toolbarPositions() {
    var state = SceneState.empty
    state.toolbar.appearance.setBackgroundImage(ImageRef(name: "top"), position: .top, metrics: .default)
    state.toolbar.appearance.setBackgroundImage(ImageRef(name: "any"), position: .any, metrics: .default)
    let atBottom = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 320)).toolbar.appearance
    #expect(atBottom.backgroundImage?.image.name == "any")
    let atTop = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 320, compact: false, toolbarPosition: .top))
      .toolbar.appearance
    #expect(atTop.backgroundImage?.image.name == "top")
  }

  @Test("R52 barStyle and barTintColor do not change translucency")
  func styleKeepsTranslucency() {
    var state = SceneState.empty
    state.toolbar.appearance = BarAppearance(barStyle: .black, barTintColor: S.red)
    let appearance = LayoutResolver.resolve(state).toolbar.appearance
    #expect(appearance.translucent)
    #expect(appearance.backgroundColor == S.red)
  }

  @Test("R53 an opaque bar forces its colour's alpha to FF; a translucent one keeps it")
  func alphaForcing() {
    var state = SceneState.empty
    state.navigationBar.appearance = BarAppearance(barTintColor: S.grey, translucent: false)
    #expect(LayoutResolver.resolve(state).navigationBar.appearance.backgroundColor?.hex == "#808080")
    state.navigationBar.appearance.translucent = nil
    #expect(LayoutResolver.resolve(state).navigationBar.appearance.backgroundColor?.hex == "#80808080")
  }

  @Test("R54 R55 example 6: an inherited opaque image makes the black toolbar opaque; scene tint beats the defaults")
  func example6() throws {
    var state = SceneState.empty
    state.toolbar.appearance.barStyle = .black
    state.appearanceDefaults.toolbar.setBackgroundImage(ImageRef(name: "wood"), position: .any, metrics: .default)
    state.appearanceDefaults.toolbar.shadowImage = ImageRef(name: "line")
    state.appearanceDefaults.toolbar.tintColor = S.orange
    state.tintColor = Color(hex: "#34c759")
    let appearance = LayoutResolver.resolve(state).toolbar.appearance
    #expect(appearance.translucent == false)
    #expect(appearance.backgroundColor == .black)
    #expect(
      appearance.backgroundImage
        == ResolvedBackgroundImage(image: ImageRef(name: "wood"), position: .any, metrics: .default, opacity: 1))
    #expect(appearance.shadowImage == ImageRef(name: "line"))
    #expect(appearance.tint.hex == "#34C759")
    let json = try #require(LayoutResolver.resolve(state).json["toolbar"]?["appearance"])
    #expect(
      json
        == [
          "barStyle": "black", "translucent": false, "backgroundColor": "#000000",
          "backgroundImage": [
            "name": "wood", "opaque": true, "width": nil, "height": nil, "position": "any", "metrics": "default",
            "opacity": 1,
          ],
          "shadowImage": ["name": "line", "opaque": true, "width": nil, "height": nil], "tint": "#34C759",
          "titleTextAttributes": nil,
        ])
    state.toolbar.appearance.translucent = true
    let forced = LayoutResolver.resolve(state).toolbar.appearance
    #expect(forced.translucent)
    #expect(forced.backgroundColor == nil)
    #expect(forced.backgroundImage?.opacity == 0.9)
  }
}
