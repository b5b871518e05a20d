import NavModel

/// How a mutation treats fields that others wrote after its `baseVersion` (CONFLICTS.md).
public enum ConflictPolicy: String, Sendable, Hashable, CaseIterable {
  /// Apply anyway; the reply lists every value that was overwritten.
  case lastWriterWins
  /// Reject the whole mutation; the error carries the current version and values.
  case failOnConflict
}

/// A batch of ops and how to commit it.
public struct MutationRequest: Sendable {
  /// The ops, applied in order, all or none.
  public var ops: [Op]
  /// The version the client last saw; nil means a blind write.
  public var baseVersion: UInt64?
  /// The epoch `baseVersion` belongs to; another epoch's base is judged as expired (CONFLICTS.md V7).
  public var epoch: String?
  /// Client-chosen; a retry with the same id from the same client is answered from memory.
  public var mutationId: String?
  /// What to do about fields written since `baseVersion`.
  public var policy: ConflictPolicy
  /// Who is writing: the client id it sent, else one derived from its connection.
  public var client: String
  /// The caller's uid: remembered mutation ids are scoped by it as well as by `client`, so one
  /// user never gets another's remembered reply (CONFLICTS.md I5). nil (in-process callers):
  /// scoped by `client` alone.
  public var uid: UInt32?
  /// The ops' wire form and digest when made ahead, off the event loop (a large `Mutate`):
  /// it must be `EncodedOps(ops)`. nil: the scene encodes the ops when it judges the request.
  public var encodedOps: EncodedOps?

  /// The id as remembered and stored: `mutationId`, prefixed with the uid's scope when there
  /// is one (`"\u{1}1000\u{1}" + id`). Stored ids of a navd before the scope have none, so
  /// no caller's retry matches them.
  var scopedMutationId: String? {
    guard let mutationId, let uid else { return mutationId }
    return "\u{1}\(uid)\u{1}" + mutationId
  }

  /// A request; without `baseVersion` it is a blind write, last writer wins.
  public init(
    ops: [Op], baseVersion: UInt64? = nil, epoch: String? = nil, mutationId: String? = nil,
    policy: ConflictPolicy = .lastWriterWins, client: String, uid: UInt32? = nil
  ) {
    self.uid = uid
    self.ops = ops
    self.baseVersion = baseVersion
    self.epoch = epoch
    self.mutationId = mutationId
    self.policy = policy
    self.client = client
  }
}

/// A request's ops in wire form and their digest, computed once: the digest recognises a
/// retry (`mutationId`), the size is what the op log counts, and the store writes the bytes.
public struct EncodedOps: Sendable {
  let bytes: [UInt8]
  let digest: UInt64

  /// Encodes `ops`: pure work that any thread may do, so a large request's need not be
  /// done on the scene's (the event loop's) time.
  public init(_ ops: [Op]) {
    bytes = Op.encoded(ops)
    digest = SceneEngine.digest(bytes)
  }
}

/// A value that a last-writer-wins mutation replaced, written by someone else after its base version.
public struct Overwrite: Sendable, Hashable {
  /// The field that was overwritten.
  public var field: FieldKey
  /// The value before this mutation.
  public var previousValue: JSONValue
  /// The version that wrote `previousValue`.
  public var writtenAt: UInt64
  /// The client that wrote `previousValue`.
  public var writtenBy: String
}

/// What a committed mutation reports back (NavService puts it into NavWire's `MutationReply`).
public struct MutationOutcome: Sendable, Hashable {
  /// The scene's version after the mutation.
  public var version: UInt64
  /// The fields it overwrote (last writer wins; empty under failOnConflict).
  public var overwritten: [Overwrite]
  /// The base version was older than the op log, so conflicts could not be judged (CONFLICTS.md).
  public var baseVersionExpired: Bool
  /// True when this answer is a replay of an earlier commit with the same mutation id.
  public var replayed: Bool
  /// True when this commit created the scene (its first version; set by `Engine`, never stored).
  public var created = false
}
