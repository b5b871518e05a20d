import NavModel

/// What one scene counts while navd runs (`GetStatistics`, PROTOCOL.md §3): plain integers
/// the scene's actor increments as it plans, installs and publishes — no lock, no
/// allocation on the hot path (`refusals` is a fixed array indexed by error code).
public struct SceneCounters: Sendable, Hashable {
  /// Versions committed (stored and installed) since navd started or the scene was created.
  public var mutations = 0
  /// Last-writer-wins mutations that overwrote a field another client had written.
  public var lastWriterWinsConflicts = 0
  /// Fail-on-conflict mutations refused with `Conflict` (CONFLICTS.md).
  public var failOnConflictConflicts = 0
  /// Mutations refused, per error code (`NavError.Code.allCases` order); `StorageFailed`
  /// counts every mutation of a group the store refused.
  public var refusalsByCode = [Int](repeating: 0, count: NavError.Code.allCases.count)
  /// Activations a watcher's full queue refused (each `dropped` frame reports some).
  public var droppedActivations = 0
  /// How long storing each commit group took.
  public var commitLatency = CommitLatency()

  /// Counts a planned mutation's result under its policy.
  mutating func planned(_ result: Result<MutationOutcome, NavError>, policy: ConflictPolicy) {
    switch result {
    case .success(let outcome):
      if !outcome.overwritten.isEmpty, policy == .lastWriterWins { lastWriterWinsConflicts += 1 }
    case .failure(let error):
      refuse(error.code)
      if error.code == .conflict, policy == .failOnConflict { failOnConflictConflicts += 1 }
    }
  }

  /// Counts `count` refusals with `code`.
  mutating func refuse(_ code: NavError.Code, count: Int = 1) {
    refusalsByCode[Self.index[code] ?? 0] += count
  }

  /// Both scenes' counts together (a deleted scene's are kept in the engine's total).
  public mutating func add(_ other: SceneCounters) {
    mutations += other.mutations
    lastWriterWinsConflicts += other.lastWriterWinsConflicts
    failOnConflictConflicts += other.failOnConflictConflicts
    for index in refusalsByCode.indices { refusalsByCode[index] += other.refusalsByCode[index] }
    droppedActivations += other.droppedActivations
    commitLatency.add(other.commitLatency)
  }

  /// Refusals by error code, the codes with none left out.
  public var refusals: [(code: NavError.Code, count: Int)] {
    zip(NavError.Code.allCases, refusalsByCode).filter { $0.1 > 0 }.map { ($0.0, $0.1) }
  }

  private static let index: [NavError.Code: Int] = Dictionary(
    uniqueKeysWithValues: NavError.Code.allCases.enumerated().map { ($1, $0) })
}
