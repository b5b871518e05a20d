import Synchronization

/// What every width's `LayoutDocument` resolves alike for one state: a bar button
/// item as one bar shows it, with its width (`LayoutResolver.candidate`), which reads
/// the state and not the metrics. One is made per committed span and handed to each
/// width's update (`LayoutDocument.update(to:change:shared:)`), so the first width
/// that reads resolves a changed item and the others take it.
///
/// Only for the one state it was made for: a different state would take another's items.
public final class SharedResolution: Sendable {
  private struct Key: Hashable {
    var id: String
    var bar: Bar
  }

  private let candidates = Mutex<[Key: LayoutResolver.Candidate]>([:])

  /// An empty one, for one state.
  public init() {}

  /// `item` as `bar` shows it in `state`, resolved once for every width.
  func candidate(_ item: BarButtonItem, in state: SceneState, bar: Bar) -> LayoutResolver.Candidate {
    let key = Key(id: item.id, bar: bar)
    if let found = candidates.withLock({ $0[key] }) { return found }
    let made = LayoutResolver.candidate(item, in: state, bar: bar)
    candidates.withLock { $0[key] = made }
    return made
  }
}
