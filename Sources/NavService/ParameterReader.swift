import NavModel

/// The standard Varlink error for a bad call parameter.
struct InvalidParameter: Error {
  var parameter: String
}

/// Reads a call's parameters; anything missing, unknown or mistyped becomes
/// `org.varlink.service.InvalidParameter(parameter)`, as the Varlink spec asks.
struct ParameterReader {
  let parameters: [String: JSONValue]

  /// Unknown parameters are rejected so typos never pass silently.
  init(_ parameters: [String: JSONValue], known: Set<String>) throws(InvalidParameter) {
    for key in parameters.keys.sorted() where !known.contains(key) { throw InvalidParameter(parameter: key) }
    self.parameters = parameters
  }

  private func value(_ name: String) -> JSONValue? {
    guard let value = parameters[name], !value.isNull else { return nil }
    return value
  }

  func string(_ name: String) throws(InvalidParameter) -> String {
    guard let s = try optionalString(name) else { throw InvalidParameter(parameter: name) }
    return s
  }

  func optionalString(_ name: String) throws(InvalidParameter) -> String? {
    guard let value = value(name) else { return nil }
    guard case .string(let s) = value else { throw InvalidParameter(parameter: name) }
    return s
  }

  /// A non-negative integer exact in a double.
  func optionalVersion(_ name: String) throws(InvalidParameter) -> UInt64? {
    guard let value = value(name) else { return nil }
    guard case .number(let n) = value, n >= 0, n.rounded() == n, n <= 9_007_199_254_740_992 else {
      throw InvalidParameter(parameter: name)
    }
    return UInt64(n)
  }

  /// A bar width: finite, above 0, at most 10,000 points.
  func optionalWidth(_ name: String) throws(InvalidParameter) -> Double? {
    guard let value = value(name) else { return nil }
    guard case .number(let n) = value, n.isFinite, n > 0, n <= 10_000 else { throw InvalidParameter(parameter: name) }
    return n
  }

  func optionalBool(_ name: String) throws(InvalidParameter) -> Bool? {
    guard let value = value(name) else { return nil }
    guard case .bool(let b) = value else { throw InvalidParameter(parameter: name) }
    return b
  }

  /// The layout metrics of SEMANTICS R7: `width`, `compact`, `navigationBarPosition`
  /// (`top`|`topAttached`) and `toolbarPosition` (`bottom`|`top`).
  func layoutMetrics() throws(InvalidParameter) -> LayoutMetrics {
    let navigationBar = try optionalEnum("navigationBarPosition", BarPosition.self) ?? .top
    guard navigationBar == .top || navigationBar == .topAttached else {
      throw InvalidParameter(parameter: "navigationBarPosition")
    }
    let toolbar = try optionalEnum("toolbarPosition", BarPosition.self) ?? .bottom
    guard toolbar == .bottom || toolbar == .top else { throw InvalidParameter(parameter: "toolbarPosition") }
    return LayoutMetrics(
      width: try optionalWidth("width"), compact: try optionalBool("compact") ?? false,
      navigationBarPosition: navigationBar, toolbarPosition: toolbar)
  }

  /// The names `layoutMetrics()` reads.
  static let metricsParameters: Set<String> = ["width", "compact", "navigationBarPosition", "toolbarPosition"]

  func optionalEnum<E: RawRepresentable>(_ name: String, _ type: E.Type) throws(InvalidParameter) -> E?
  where E.RawValue == String {
    guard let raw = try optionalString(name) else { return nil }
    guard let value = E(rawValue: raw) else { throw InvalidParameter(parameter: name) }
    return value
  }

  func required(_ name: String) throws(InvalidParameter) -> JSONValue {
    guard let value = value(name) else { throw InvalidParameter(parameter: name) }
    return value
  }
}
