import Foundation
import NavModel
import NavTestSupport

/// Random ops shaped by a state the writer last saw: mostly valid, some stale or wrong on purpose.
struct RandomMutations {
  var rng: SplitMix64
  let buttons = (0..<12).map { "b\($0)" }
  let screens = (0..<10).map { "s\($0)" }

  init(seed: UInt64) { rng = SplitMix64(seed: seed) }

  mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

  mutating func ops(seeing state: SceneState) -> [Op] {
    (0..<Int.random(in: 1...3, using: &rng)).map { _ in op(seeing: state) }
  }

  mutating func op(seeing state: SceneState) -> Op {
    let stack = state.navigationBar.items.map(\.id)
    let defined = state.barButtonItems.items.map(\.id)
    let anyButton = pick(buttons)
    let someButton = defined.isEmpty ? anyButton : pick(defined)
    let someScreen = stack.isEmpty ? pick(screens) : pick(stack)
    switch Int.random(in: 0..<16, using: &rng) {
    case 0: return .defineBarButtonItem(BarButtonItem(id: anyButton, title: "T\(Int.random(in: 0..<99, using: &rng))"))
    case 1:
      return .push(
        NavigationItem(id: pick(screens), title: "S", leftBarButtonItems: chance(0.5) ? [someButton] : []),
        animated: chance(0.5))
    case 2: return .pop(expectTop: chance(0.5) ? stack.last : nil, animated: chance(0.5))
    case 3: return .popTo(someScreen, animated: false)
    case 4:
      return .updateNavigationItem(someScreen, [.title("t\(Int.random(in: 0..<9, using: &rng))")], animated: false)
    case 5: return .updateNavigationItem(someScreen, [.prompt(chance(0.5) ? nil : "p")], animated: false)
    case 6: return .updateBarButtonItem(someButton, [.enabled(chance(0.5))])
    case 7: return .updateBarButtonItem(someButton, [.title("x\(Int.random(in: 0..<9, using: &rng))")])
    case 8:
      return .setBarButtonItem(
        navigationItem: someScreen, side: chance(0.5) ? .left : .right, item: chance(0.8) ? someButton : nil,
        animated: false)
    case 9: return .insertBarButtonItem(navigationItem: someScreen, side: .right, item: someButton, before: nil)
    case 10: return .removeBarButtonItem(navigationItem: someScreen, side: .left, item: someButton)
    case 11: return .insertToolbarItem(someButton, before: state.toolbar.items.first)
    case 12: return .moveToolbarItem(state.toolbar.items.last ?? someButton, before: state.toolbar.items.first)
    case 13: return .setBarHidden(chance(0.5) ? .toolbar : .navigationBar, hidden: chance(0.5), animated: false)
    case 14: return .updateAppearance(.navigationBar, [.tintColor(chance(0.5) ? Color(hex: "#112233") : nil)])
    default:
      return chance(0.2)
        ? .deleteBarButtonItem(someButton)
        : .setStack(Array(stack.prefix(2)).map { NavigationItem(id: $0, title: $0) }, animated: false)
    }
  }
}
