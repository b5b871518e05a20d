import NavModel
import Testing

/// Tint inheritance (SEMANTICS R56), as tables over every combination of set levels.
@Suite("Appearance resolution: tint")
struct AppearanceResolutionTintTests {
  typealias S = LayoutScenes

  @Test("R56 a bar's tint: bar → scene → appearance defaults → system blue, over every combination")
  func barTintTable() {
    for bar in Bar.allCases {
      for mask in 0..<8 {
        var state = SceneState.empty
        let setBar = mask & 1 != 0
        let setScene = mask & 2 != 0
        let setDefaults = mask & 4 != 0
        let barColor: Color? = setBar ? S.red : nil
        switch bar {
        case .navigationBar:
          state.navigationBar.appearance.tintColor = barColor
          state.appearanceDefaults.navigationBar.tintColor = setDefaults ? S.orange : nil
        case .toolbar:
          state.toolbar.appearance.tintColor = barColor
          state.appearanceDefaults.toolbar.tintColor = setDefaults ? S.orange : nil
        }
        state.tintColor = setScene ? S.green : nil
        // The item appearance default never tints a bar.
        state.appearanceDefaults.barButtonItemTintColor = S.purple
        let expected = setBar ? S.red : setScene ? S.green : setDefaults ? S.orange : .systemBlue
        let layout = LayoutResolver.resolve(state)
        let tint = bar == .navigationBar ? layout.navigationBar.appearance.tint : layout.toolbar.appearance.tint
        #expect(tint == expected, "\(bar) mask \(mask)")
      }
    }
  }

  @Test("R56 an item's tint: item → bar → scene → item default → bar default → system blue, over every combination")
  func itemTintTable() {
    for bar in Bar.allCases {
      for mask in 0..<32 {
        let levels: [(Bool, Color)] = [
          (mask & 1 != 0, S.red), (mask & 2 != 0, S.green), (mask & 4 != 0, S.orange), (mask & 8 != 0, S.purple),
          (mask & 16 != 0, S.teal),
        ]
        var state = LayoutScenes.scene(
          [NavigationItem(id: "a", rightBarButtonItems: ["x"])],
          items: [BarButtonItem(id: "x", title: "X", tintColor: levels[0].0 ? levels[0].1 : nil)], toolbar: ["x"])
        let barColor = levels[1].0 ? levels[1].1 : nil
        let barDefault = levels[4].0 ? levels[4].1 : nil
        switch bar {
        case .navigationBar:
          state.navigationBar.appearance.tintColor = barColor
          state.appearanceDefaults.navigationBar.tintColor = barDefault
        case .toolbar:
          state.toolbar.appearance.tintColor = barColor
          state.appearanceDefaults.toolbar.tintColor = barDefault
        }
        state.tintColor = levels[2].0 ? levels[2].1 : nil
        state.appearanceDefaults.barButtonItemTintColor = levels[3].0 ? levels[3].1 : nil
        let expected = levels.first { $0.0 }?.1 ?? .systemBlue
        let layout = LayoutResolver.resolve(state)
        let tint = bar == .navigationBar ? layout.navigationBar.right.first?.tint : layout.toolbar.items.first?.tint
        #expect(tint == expected, "\(bar) mask \(mask)")
      }
    }
  }

  @Test("R56 the same item resolves per bar; a disabled item keeps its tint")
  func itemTintPerBar() {
    var state = LayoutScenes.scene(
      [NavigationItem(id: "a", rightBarButtonItems: ["x"])],
      items: [BarButtonItem(id: "x", title: "X", enabled: false)], toolbar: ["x"])
    state.navigationBar.appearance.tintColor = S.red
    state.toolbar.appearance.tintColor = S.green
    let layout = LayoutResolver.resolve(state)
    #expect(layout.navigationBar.right.first?.tint == S.red)
    #expect(layout.toolbar.items.first?.tint == S.green)
    #expect(layout.toolbar.items.first?.enabled == false)
  }
}
