import NavModel
import Varlink

extension MutateCall {
  /// The parameters `init(parameters:)` knows, in the order the typed reader numbers them.
  private static let parameterNames: [StaticString] = [
    "scene", "ops", "baseVersion", "epoch", "mutationId", "clientId", "policy",
  ]

  /// Reads the parameters from object `object` of a call's frame, exactly as
  /// `init(parameters:)` reads them from a dictionary; the ops are read the same way
  /// (`Op.list(in:at:)`).
  ///
  /// The typed reader takes only parameters it knows to be valid and leaves anything else
  /// to `init(parameters:)`, the reference, so errors are the reference's by construction.
  /// Fast path: the reference takes the ops as a `JSONValue`, past `Op.list(in:at:)`'s typed readers (BENCHMARKS.md, "Fast paths").
  public init(parameters document: JSONDocument, at object: JSONDocument.Index) throws(CallError) {
    if let call = try Self.typed(document, object) {
      self = call
    } else {
      try self.init(parameters: document.value(object))
    }
  }

  /// The call, nil when a parameter is not what the reference would accept; throws only the
  /// ops' own error, which the reference would throw too once the other parameters passed.
  private static func typed(_ document: JSONDocument, _ object: JSONDocument.Index) throws(CallError) -> MutateCall? {
    guard document.kind(object) == .object else { return nil }
    // Locals, not a `MutateCall` filled in member by member: the struct is built once, at
    // the end, instead of copied into the optional and again into `self`.
    var scene: String?
    var ops: JSONDocument.Index?
    var baseVersion: UInt64?
    var epoch: String?
    var mutationId: String?
    var clientId: String?
    var policy: MutationPolicy?
    for (key, value) in document.members(object) {
      let position = document.key(key, in: parameterNames)
      // Every parameter but scene and ops may be null, which reads as absent.
      if let position, position >= 2, document.isNull(value) { continue }
      switch position {
      case 0: scene = document.string(value)
      case 1: ops = document.kind(value) == .array ? value : nil
      case 2:
        guard let n = document.number(value), n >= 0, n.rounded() == n, n <= 9_007_199_254_740_992 else { return nil }
        baseVersion = UInt64(n)
      case 3:
        guard let text = document.string(value) else { return nil }
        epoch = text
      case 4:
        guard let text = document.string(value) else { return nil }
        mutationId = text
      case 5:
        guard let text = document.string(value), (1...128).contains(text.utf8.count) else { return nil }
        clientId = text
      case 6:
        guard let raw = document.string(value), let value = MutationPolicy(rawValue: raw) else { return nil }
        policy = value
      default: return nil
      }
    }
    guard let scene, let ops else { return nil }
    let list: [Op]
    do {
      list = try Op.list(in: document, at: ops)
    } catch {
      throw .rejected(error)
    }
    return MutateCall(
      scene: scene, ops: list, baseVersion: baseVersion, epoch: epoch, mutationId: mutationId, clientId: clientId,
      policy: policy)
  }

  /// Reads a received call's parameters: straight from its frame when it has one.
  public init(call: VarlinkCall) throws(CallError) {
    if let (document, object) = call.parametersDocument {
      try self.init(parameters: document, at: object)
    } else {
      try self.init(parameters: .object(call.parameters))
    }
  }
}
