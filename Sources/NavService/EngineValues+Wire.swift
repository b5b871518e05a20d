import NavEngine
import NavWire

/// The engine returns values; these put them into NavWire's io.navd messages.
extension MutationReply {
  /// The `Mutate` reply for a committed mutation.
  init(_ outcome: MutationOutcome) {
    self.init(
      version: outcome.version,
      overwritten: outcome.overwritten.map {
        Overwrite(field: $0.field.description, previousValue: $0.previousValue, version: $0.writtenAt)
      }, baseVersionExpired: outcome.baseVersionExpired, replayed: outcome.replayed,
      created: outcome.created)
  }
}

extension ConflictPolicy {
  /// The engine's policy for a call's `policy` (absent: last writer wins, CONFLICTS.md §4).
  init(_ policy: MutationPolicy?) {
    switch policy {
    case .failOnConflict: self = .failOnConflict
    case .lastWriterWins, nil: self = .lastWriterWins
    }
  }
}
