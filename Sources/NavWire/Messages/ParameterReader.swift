import NavModel

/// Reads a call's parameters; anything missing, unknown or mistyped becomes
/// `org.varlink.service.InvalidParameter(parameter)`, as the Varlink spec asks.
struct ParameterReader {
  let parameters: [String: JSONValue]

  /// Unknown parameters are rejected (the first in sorted order) so typos never pass silently.
  /// `known` is usually an array literal: a linear scan of a few names hashes nothing.
  init(_ parameters: JSONValue, known: some Collection<String>) throws(CallError) {
    switch parameters {
    case .null: self.parameters = [:]
    case .object(let members): self.parameters = members
    default: throw .invalid("parameters")
    }
    guard self.parameters.keys.contains(where: { !known.contains($0) }) else { return }
    for key in self.parameters.keys.sorted() where !known.contains(key) { throw .invalid(key) }
  }

  /// The parameter, or nil when it is absent or `null`.
  func value(_ name: String) -> JSONValue? {
    guard let value = parameters[name], !value.isNull else { return nil }
    return value
  }

  func string(_ name: String) throws(CallError) -> String {
    guard let s = try optionalString(name) else { throw .invalid(name) }
    return s
  }

  func optionalString(_ name: String) throws(CallError) -> String? {
    guard let value = value(name) else { return nil }
    guard case .string(let s) = value else { throw .invalid(name) }
    return s
  }

  /// A non-negative integer exact in a double.
  func optionalVersion(_ name: String) throws(CallError) -> UInt64? {
    guard let value = value(name) else { return nil }
    guard case .number(let n) = value, n >= 0, n.rounded() == n, n <= 9_007_199_254_740_992 else {
      throw .invalid(name)
    }
    return UInt64(n)
  }

  /// A bar width: finite, above 0, at most 10,000 points (PROTOCOL §9.1).
  func optionalWidth(_ name: String) throws(CallError) -> Double? {
    guard let value = value(name) else { return nil }
    guard case .number(let n) = value, n.isFinite, n > 0, n <= 10_000 else { throw .invalid(name) }
    return n
  }

  func optionalBool(_ name: String) throws(CallError) -> Bool? {
    guard let value = value(name) else { return nil }
    guard case .bool(let b) = value else { throw .invalid(name) }
    return b
  }

  func optionalEnum<E: RawRepresentable>(_ name: String, _ type: E.Type) throws(CallError) -> E?
  where E.RawValue == String {
    guard let raw = try optionalString(name) else { return nil }
    guard let value = E(rawValue: raw) else { throw .invalid(name) }
    return value
  }

  /// The layout metrics of SEMANTICS R7: `width`, `compact`, `navigationBarPosition`
  /// (`top`|`topAttached`) and `toolbarPosition` (`bottom`|`top`).
  func layoutMetrics() throws(CallError) -> LayoutMetrics {
    let navigationBar = try optionalEnum("navigationBarPosition", BarPosition.self) ?? .top
    guard navigationBar == .top || navigationBar == .topAttached else { throw .invalid("navigationBarPosition") }
    let toolbar = try optionalEnum("toolbarPosition", BarPosition.self) ?? .bottom
    guard toolbar == .bottom || toolbar == .top else { throw .invalid("toolbarPosition") }
    return LayoutMetrics(
      width: try optionalWidth("width"), compact: try optionalBool("compact") ?? false,
      navigationBarPosition: navigationBar, toolbarPosition: toolbar)
  }

  /// The names `layoutMetrics()` reads.
  static let metricsParameters: Set<String> = ["width", "compact", "navigationBarPosition", "toolbarPosition"]
}

extension LayoutMetrics {
  /// The call parameters for these metrics; defaults are left out.
  var parameters: [String: JSONValue] {
    var parameters: [String: JSONValue] = [:]
    if let width { parameters["width"] = .number(width) }
    if compact { parameters["compact"] = true }
    if navigationBarPosition != .top { parameters["navigationBarPosition"] = .string(navigationBarPosition.rawValue) }
    if toolbarPosition != .bottom { parameters["toolbarPosition"] = .string(toolbarPosition.rawValue) }
    return parameters
  }
}

/// Client-chosen identifiers (`clientId`, PROTOCOL §9.11): 1…128 bytes.
func checkIdentifier(_ value: String, field: String) throws(CallError) {
  guard !value.isEmpty else { throw .rejected(NavError(.invalidMutation, "\(field) must not be empty", field: field)) }
  guard value.utf8.count <= 128 else {
    throw .rejected(
      NavError(
        .limitExceeded, "\(field) is \(value.utf8.count) bytes; the limit is 128", field: field, value: value,
        limit: "\(field)Bytes", max: 128))
  }
}
