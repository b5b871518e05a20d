/// How the versions of one commit group are cut into updates (PROTOCOL.md §6
/// "Gap-free"): consecutive versions that carry no events and agree on
/// `animated` reach a subscriber as one update, from the document before the
/// first to the document after the last; a version with events is an update
/// of its own, and a change of `animated` starts a new one.
///
/// What a client loses is only the documents in between, which existed
/// inside one commit group and were never published: like a UI toolkit's one
/// layout pass per run-loop turn, a front end needs the resolved layout, not
/// each transient one. What it saves navd is a resolve, a diff and an encode
/// per version per view.
enum UpdateSpans {
  /// The index ranges of `versions` that become one update each, in order,
  /// covering every version.
  ///
  /// Each version's entry is read where it is, not copied out of the array: a copy of
  /// each `LogEntry` (through a lazy map) cost ~1,000 instructions per version (callgrind).
  static func of(_ versions: [GroupPlan.Version]) -> [Range<Int>] {
    var spans: [Range<Int>] = []
    var start = 0
    for index in versions.indices.dropFirst() where !joins(versions[index].entry, versions[index - 1].entry) {
      spans.append(start..<index)
      start = index
    }
    if !versions.isEmpty { spans.append(start..<versions.count) }
    return spans
  }

  /// Whether `entry` joins the update of `previous`, the version before it.
  private static func joins(_ entry: borrowing LogEntry, _ previous: borrowing LogEntry) -> Bool {
    entry.events.isEmpty && previous.events.isEmpty && entry.animated == previous.animated
  }
}
