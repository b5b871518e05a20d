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
  /// The index ranges of `entries` that become one update each, in order,
  /// covering every entry.
  static func of(_ entries: some Collection<LogEntry>) -> [Range<Int>] {
    var spans: [Range<Int>] = []
    var start = 0
    var previous: LogEntry?
    for (index, entry) in entries.enumerated() {
      if let previous, !joins(entry, previous) {
        spans.append(start..<index)
        start = index
      }
      previous = entry
    }
    if previous != nil { spans.append(start..<entries.count) }
    return spans
  }

  /// Whether `entry` joins the update of `previous`, the version before it.
  private static func joins(_ entry: LogEntry, _ previous: LogEntry) -> Bool {
    entry.events.isEmpty && previous.events.isEmpty && entry.animated == previous.animated
  }
}
