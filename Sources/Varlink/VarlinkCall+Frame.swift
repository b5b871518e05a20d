import NavModel

extension VarlinkCall {
  /// The envelope's keys, in the order the typed reader numbers them.
  private static let envelopeKeys: [StaticString] = ["method", "parameters", "oneway", "more", "upgrade"]

  /// The call when the frame is a well-formed call, read straight from the document;
  /// nil for anything `init(from:)` would reject or read differently (it then decides).
  static func typed(_ document: JSONDocument) -> VarlinkCall? {
    let root = document.root
    guard document.kind(root) == .object else { return nil }
    var method: String?
    var parameters: JSONDocument.Index?
    var flags = (oneway: false, more: false, upgrade: false)
    for (key, value) in document.members(root) {
      switch document.key(key, in: envelopeKeys) {
      case 0:
        guard let name = document.string(value) else { return nil }
        method = name
      case 1:
        switch document.kind(value) {
        case .null: parameters = nil
        case .object: parameters = value
        default: return nil
        }
      case 2:
        guard let flag = flag(document, value) else { return nil }
        flags.oneway = flag
      case 3:
        guard let flag = flag(document, value) else { return nil }
        flags.more = flag
      case 4:
        guard let flag = flag(document, value) else { return nil }
        flags.upgrade = flag
      default:
        // A vendor extension ("com.example.trace") is ignored; a plain ASCII key is searched
        // for its dot byte, any other is left to the reference (which looks for a Character).
        guard document.isPlainString(key), document.rawBytes(key).contains(UInt8(ascii: ".")) else { return nil }
      }
    }
    let trueFlags = (flags.oneway ? 1 : 0) + (flags.more ? 1 : 0) + (flags.upgrade ? 1 : 0)
    guard let method, trueFlags <= 1 else { return nil }
    // Built with its storage in one init: setting the storage after the public init kept
    // a copy of the call (~220 instructions a call, callgrind).
    return VarlinkCall(
      method: method, storage: .document(document, object: parameters), oneway: flags.oneway, more: flags.more,
      upgrade: flags.upgrade)
  }

  /// A flag: a bool, or `null` (false); nil for any other type.
  private static func flag(_ document: JSONDocument, _ value: JSONDocument.Index) -> Bool? {
    document.isNull(value) ? false : document.bool(value)
  }
}

extension VarlinkCall: Hashable {
  /// Calls are equal when their method, flags and parameters are, wherever the parameters are kept.
  public static func == (lhs: VarlinkCall, rhs: VarlinkCall) -> Bool {
    lhs.method == rhs.method && lhs.oneway == rhs.oneway && lhs.more == rhs.more && lhs.upgrade == rhs.upgrade
      && lhs.parameters == rhs.parameters
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(method)
    hasher.combine(parameters)
    hasher.combine(oneway)
    hasher.combine(more)
    hasher.combine(upgrade)
  }
}
