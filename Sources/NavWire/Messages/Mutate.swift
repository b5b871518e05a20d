import NavModel

/// How a mutation treats fields that other clients wrote after its `baseVersion` (CONFLICTS.md §4).
public enum MutationPolicy: String, Sendable, Hashable, CaseIterable {
  /// Apply anyway; the reply lists every value that was overwritten (navd's default).
  case lastWriterWins
  /// Reject the whole mutation with `io.navd.Conflict`, which carries the current values.
  case failOnConflict
}

/// `Mutate(scene, ops, baseVersion?, epoch?, mutationId?, clientId?, policy?)`.
public struct MutateCall: NavCall {
  /// What navd answers.
  public typealias Reply = MutationReply
  /// `Mutate`.
  public static let method = NavMethod.mutate

  /// The scene to change (created when it does not exist).
  public var scene: String
  /// The ops, applied atomically (PROTOCOL §4).
  public var ops: [Op]
  /// The version the client last saw; nil for a blind write.
  public var baseVersion: UInt64?
  /// The epoch `baseVersion` came from.
  public var epoch: String?
  /// Client-chosen; a retry with the same id from the same client is answered from memory.
  public var mutationId: String?
  /// Who writes (1…128 bytes); nil: navd derives one from the connection.
  public var clientId: String?
  /// nil: navd's default, `lastWriterWins`.
  public var policy: MutationPolicy?

  /// A call; nil fields are not sent.
  public init(
    scene: String, ops: [Op], baseVersion: UInt64? = nil, epoch: String? = nil, mutationId: String? = nil,
    clientId: String? = nil, policy: MutationPolicy? = nil
  ) {
    self.scene = scene
    self.ops = ops
    self.baseVersion = baseVersion
    self.epoch = epoch
    self.mutationId = mutationId
    self.clientId = clientId
    self.policy = policy
  }

  /// Reads the parameters; a malformed op is its `NavError` (InvalidMutation, …), an empty
  /// or over-long `clientId` InvalidMutation or LimitExceeded (PROTOCOL §9.11).
  public init(parameters: JSONValue) throws(CallError) {
    let reader = try ParameterReader(
      parameters, known: ["scene", "ops", "baseVersion", "epoch", "mutationId", "clientId", "policy"])
    scene = try reader.string("scene")
    guard let opsValue = reader.value("ops"), case .array = opsValue else { throw .invalid("ops") }
    do {
      ops = try Op.list(json: opsValue)
    } catch {
      throw .rejected(error)
    }
    clientId = try reader.optionalString("clientId")
    if let clientId { try checkIdentifier(clientId, field: "clientId") }
    baseVersion = try reader.optionalVersion("baseVersion")
    epoch = try reader.optionalString("epoch")
    mutationId = try reader.optionalString("mutationId")
    policy = try reader.optionalEnum("policy", MutationPolicy.self)
  }

  /// The call's parameters; nil fields are left out.
  public var parameters: JSONValue {
    var members: [String: JSONValue] = ["scene": .string(scene), "ops": .array(ops.map(\.json))]
    if let baseVersion { members["baseVersion"] = baseVersion.json }
    if let epoch { members["epoch"] = .string(epoch) }
    if let mutationId { members["mutationId"] = .string(mutationId) }
    if let clientId { members["clientId"] = .string(clientId) }
    if let policy { members["policy"] = .string(policy.rawValue) }
    return .object(members)
  }
}

/// navd's answer to a committed `Mutate`.
public struct MutationReply: NavReply {
  /// A field that a `lastWriterWins` mutation overwrote after another client had written it
  /// (the IDL's `Overwrite`).
  public struct Overwrite: Sendable, Hashable {
    /// The field key, e.g. `navigationItem/inbox/title`.
    public var field: String
    /// The value this mutation replaced (`null` when the field was unset).
    public var previousValue: JSONValue
    /// The version that had written `previousValue`.
    public var version: UInt64

    /// Creates an overwrite record.
    public init(field: String, previousValue: JSONValue, version: UInt64) {
      self.field = field
      self.previousValue = previousValue
      self.version = version
    }

    /// The element's JSON.
    public var parameters: JSONValue {
      ["field": .string(field), "previousValue": previousValue, "version": version.json]
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
  /// This mutation created the scene: its first version (a retry answered from memory says false).
  public var created: Bool

  /// Creates a reply.
  public init(
    version: UInt64, overwritten: [Overwrite] = [], baseVersionExpired: Bool = false, replayed: Bool = false,
    created: Bool = false
  ) {
    self.version = version
    self.overwritten = overwritten
    self.baseVersionExpired = baseVersionExpired
    self.replayed = replayed
    self.created = created
  }

  /// Reads a `Mutate` reply.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "Mutate reply")
    version = try reader.version("version")
    overwritten = []
    for element in try reader.array("overwritten", default: []) {
      let item = try ReplyReader(element, context: "Mutate reply: overwritten")
      overwritten.append(
        Overwrite(
          field: try item.string("field"), previousValue: item.anyValue("previousValue"),
          version: try item.version("version")))
    }
    baseVersionExpired = try reader.bool("baseVersionExpired", default: false)
    replayed = try reader.bool("replayed", default: false)
    created = try reader.bool("created", default: false)
  }

  /// The reply's parameters.
  public var parameters: JSONValue {
    [
      "version": version.json, "overwritten": .array(overwritten.map(\.parameters)),
      "baseVersionExpired": .bool(baseVersionExpired), "replayed": .bool(replayed), "created": .bool(created),
    ]
  }

  /// Writes `parameters` as `JSONWriter` would (keys sorted) without building the value,
  /// through the writer of ops and updates (`SortedJSONWriter`); a seeded test compares the bytes.
  /// Fast path: navd answers every Mutate with one, and the reference's dictionary costs more
  /// than 1 % of a round trip (BENCHMARKS.md, "Fast paths").
  public func encodeParameters(into out: inout [UInt8]) {
    SortedJSONWriter.append(to: &out) { w in
      // Adjacent constants are one fragment: each write has a fixed cost besides its bytes.
      w.fragment(baseVersionExpired ? #"{"baseVersionExpired":true,"# : #"{"baseVersionExpired":false,"#)
      w.fragment(created ? #""created":true,"overwritten":["# : #""created":false,"overwritten":["#)
      for overwrite in overwritten {
        w.beginObject()
        w.member(#""field":"#, overwrite.field)
        w.key(#""previousValue":"#)
        w.value(overwrite.previousValue)
        w.key(#""version":"#)
        w.version(overwrite.version)
        w.endObject()
      }
      w.fragment(replayed ? #"],"replayed":true,"version":"# : #"],"replayed":false,"version":"#)
      w.version(version)
      w.endObject()
    }
  }
}
