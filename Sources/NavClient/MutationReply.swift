import NavModel

/// How a mutation treats fields that other clients wrote after its `baseVersion` (CONFLICTS.md §4).
public enum MutationPolicy: String, Sendable, Hashable, CaseIterable {
  /// Apply anyway; the reply lists every value that was overwritten (navd's default).
  case lastWriterWins
  /// Reject the whole mutation with `io.navd.Conflict`, which carries the current values.
  case failOnConflict
}

/// navd's answer to a committed `Mutate`.
public struct MutationReply: Sendable, Hashable {
  /// A field that a `lastWriterWins` mutation overwrote after another client had written it.
  public struct Overwrite: Sendable, Hashable {
    /// The field key, e.g. `navigationItem/inbox/title`.
    public var field: String
    /// The value this mutation replaced (`null` when the field was unset).
    public var previousValue: JSONValue
    /// The version that had written `previousValue`.
    public var version: UInt64

    /// Creates an overwrite record (tests, fakes).
    public init(field: String, previousValue: JSONValue, version: UInt64) {
      self.field = field
      self.previousValue = previousValue
      self.version = version
    }
  }

  /// The scene's version after this mutation.
  public var version: UInt64
  /// What this mutation overwrote (always empty under `failOnConflict`).
  public var overwritten: [Overwrite]
  /// The base version was older than navd's op log, so no conflict could be judged (CONFLICTS.md V7).
  public var baseVersionExpired: Bool
  /// The reply is navd's memory of an earlier commit with the same (clientId, mutationId).
  public var replayed: Bool

  /// Creates a reply (tests, fakes).
  public init(version: UInt64, overwritten: [Overwrite] = [], baseVersionExpired: Bool = false, replayed: Bool = false)
  {
    self.version = version
    self.overwritten = overwritten
    self.baseVersionExpired = baseVersionExpired
    self.replayed = replayed
  }

  init(_ parameters: [String: JSONValue]) throws(NavClientError) {
    let reader = ReplyReader(parameters, context: "Mutate reply")
    version = try reader.version("version")
    overwritten = []
    for element in try reader.array("overwritten", default: []) {
      let item = try ReplyReader(element, context: "Mutate reply: overwritten")
      overwritten.append(
        Overwrite(
          field: try item.string("field"), previousValue: item.parameters["previousValue"] ?? .null,
          version: try item.version("version")))
    }
    baseVersionExpired = try reader.bool("baseVersionExpired", default: false)
    replayed = try reader.bool("replayed", default: false)
  }
}
