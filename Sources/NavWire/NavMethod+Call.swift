import Varlink

extension NavMethod {
  /// The method a call names: `NavMethod(rawValue: call.methodName)`, found from the UTF-8 of
  /// `call.method` without building the name or switching over strings (~1,400 instructions
  /// on every call otherwise).
  ///
  /// Only a name part of plain ASCII is matched by its bytes (ASCII strings are equal exactly
  /// when their bytes are); anything else — a combining mark after the dot, a name that is
  /// canonically equivalent to ASCII — is left to the reference. A seeded test compares the two.
  public init?(methodOf call: VarlinkCall) {
    var method = call.method
    let found: NavMethod?? = method.withUTF8 { utf8 -> NavMethod?? in
      let dot = utf8.lastIndex(of: UInt8(ascii: "."))
      let name = UnsafeBufferPointer(rebasing: utf8[(dot.map { $0 + 1 } ?? 0)...])
      guard name.allSatisfy({ $0 < 0x80 }) else { return nil }
      return .some(Self.names.first { Self.same($0.name, name) }?.method)
    }
    guard let found else {
      self.init(rawValue: call.methodName)
      return
    }
    guard let found else { return nil }
    self = found
  }

  /// Whether the two hold the same bytes (lengths first: most names differ in length).
  private static func same(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    for i in 0..<a.count where a[i] != b[i] { return false }
    return true
  }

  /// Every method with its raw value's bytes, built once.
  private static let names: [(method: NavMethod, name: [UInt8])] = allCases.map { ($0, Array($0.rawValue.utf8)) }
}
