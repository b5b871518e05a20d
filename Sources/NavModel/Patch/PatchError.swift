/// Why a JSON Patch was rejected: a stable code, the index of the operation at fault, the field
/// of that operation, and a detail for humans.
///
/// Whoever maps this to a wire error should key on `code`; `detail` wording may change.
public struct PatchError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Stable reason codes; tests and the wire mapping compare these, never the detail text.
  public enum Code: String, Hashable, Sendable {
    /// The patch or one operation is not shaped as RFC 6902 requires (not an array, not an
    /// object, unknown `op`, a missing or mistyped member).
    case malformedOperation
    /// A `path` or `from` string is not an RFC 6901 pointer.
    case invalidPointer
    /// An object member named by the pointer does not exist.
    case pathNotFound
    /// The pointer goes through a value that is neither an object nor an array.
    case notAContainer
    /// An array was indexed with a token that is not an index (`01`, `x`, `-1`).
    case invalidArrayIndex
    /// An array index past the end (or `-` where an existing element is needed).
    case indexOutOfRange
    /// A `test` operation found a different value.
    case testFailed
    /// A `move` whose `from` is a proper prefix of its `path`.
    case moveIntoOwnChild
    /// A `remove` of the whole document, which would leave no document.
    case rootNotRemovable
  }

  /// The member of an operation object an error is about.
  public enum Field: String, Hashable, Sendable {
    /// `op`: missing, not a string, or not one of the six operations.
    case op
    /// `path`: missing, malformed, or naming a place the operation cannot act on.
    case path
    /// `from` of `move` and `copy`: missing, malformed, or naming nothing.
    case from
    /// `value`: missing, or (for `test`) not equal to the document's value.
    case value
  }

  /// What went wrong, stable across releases.
  public var code: Code
  /// Zero-based index of the failing operation in the patch; nil when the patch as a whole
  /// is at fault (for instance, it is not an array).
  public var operationIndex: Int?
  /// Which member of the operation is at fault, when one is.
  public var field: Field?
  /// A human sentence naming the pointer and the limit.
  public var detail: String

  /// Creates an error; `operationIndex` is usually filled in by the caller that knows it.
  public init(code: Code, operationIndex: Int? = nil, field: Field? = nil, detail: String) {
    self.code = code
    self.operationIndex = operationIndex
    self.field = field
    self.detail = detail
  }

  /// One line: which operation, which field, what happened.
  public var description: String {
    var out = "JSON Patch"
    if let operationIndex { out += " operation \(operationIndex)" }
    if let field { out += " \"\(field.rawValue)\"" }
    out += ": \(detail) (\(code.rawValue))"
    return out
  }
}
