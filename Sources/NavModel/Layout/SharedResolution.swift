import Synchronization

/// What every width's `LayoutDocument` resolves alike for one state: a bar button
/// item as one bar shows it, with its width (`LayoutResolver.candidate`), which reads
/// the state and not the metrics. One is made per committed span and handed to each
/// width's update (`LayoutDocument.update(to:change:shared:)`), so the first width
/// that reads resolves a changed item and the others take it.
///
/// Only for the one state it was made for: a different state would take another's items.
/// It holds the span's changed items that a bar shows, at most a few dozen (R66), usually
/// one: they are looked for in order, which costs less than hashing their ids.
public final class SharedResolution: Sendable {
  private struct Resolved {
    var id: String
    var bar: Bar
    var candidate: LayoutResolver.Candidate
  }

  private let resolved = Mutex<[Resolved]>([])

  /// An empty one, for one state.
  public init() {}

  /// The item `id` as `bar` shows it in `state`, resolved once for every width; nil when
  /// `state` defines no such item.
  func candidate(_ id: String, in state: SceneState, bar: Bar) -> LayoutResolver.Candidate? {
    if let found = resolved.withLock({ $0.first { $0.bar == bar && $0.id == id }?.candidate }) { return found }
    guard let item = state.barButtonItems[id] else { return nil }
    let made = LayoutResolver.candidate(item, in: state, bar: bar)
    resolved.withLock { $0.append(Resolved(id: id, bar: bar, candidate: made)) }
    return made
  }
}
