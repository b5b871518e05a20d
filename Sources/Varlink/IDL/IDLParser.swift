/// The recursive-descent parser behind `VarlinkIDL(parsing:)`: `#` comments and white space
/// between tokens are skipped.
struct IDLParser {
  private let text: [Character]
  private var at = 0

  init(_ text: String) { self.text = Array(text) }

  mutating func interface() throws(VarlinkIDLError) -> VarlinkIDL {
    try keyword("interface")
    let name = try word()
    var types: [String: VarlinkIDL.FieldType] = [:]
    var methods: [String: VarlinkIDL.Method] = [:]
    var errors: [String: [VarlinkIDL.Field]] = [:]
    while skipSpace() {
      let member = try word()
      let memberName = try word()
      switch member {
      case "type": types[memberName] = try parenthesised()
      case "error": errors[memberName] = try fields()
      case "method":
        let input = try fields()
        try expect("->")
        methods[memberName] = VarlinkIDL.Method(input: input, output: try fields())
      default: throw failure("type, method or error, not \(member)")
      }
    }
    return VarlinkIDL(name: name, types: types, methods: methods, errors: errors)
  }

  /// `( … )` of named fields (a struct, possibly empty).
  private mutating func fields() throws(VarlinkIDLError) -> [VarlinkIDL.Field] {
    guard case .structure(let fields) = try parenthesised() else { throw failure("named fields") }
    return fields
  }

  /// `(a, b)` (an enum) or `(a: T, …)` (a struct).
  private mutating func parenthesised() throws(VarlinkIDLError) -> VarlinkIDL.FieldType {
    try expect("(")
    var names: [String] = []
    var fields: [VarlinkIDL.Field] = []
    skipSpace()
    while peek() != ")" {
      if !names.isEmpty || !fields.isEmpty { try expect(",") }
      let name = try word()
      skipSpace()
      if peek() == ":" {
        try expect(":")
        fields.append(VarlinkIDL.Field(name: name, type: try type()))
      } else {
        names.append(name)
      }
      skipSpace()
    }
    try expect(")")
    guard names.isEmpty || fields.isEmpty else { throw failure("an enum or a struct, not both") }
    return names.isEmpty ? .structure(fields) : .enumeration(names)
  }

  private mutating func type() throws(VarlinkIDLError) -> VarlinkIDL.FieldType {
    skipSpace()
    switch peek() {
    case "?":
      at += 1
      return .optional(try type())
    case "[":
      at += 1
      if peek() == "]" {
        at += 1
        return .array(try type())
      }
      try keyword("string")
      try expect("]")
      return .map(try type())
    case "(": return try parenthesised()
    default:
      let name = try word()
      switch name {
      case "bool": return .bool
      case "int": return .int
      case "float": return .float
      case "string": return .string
      case "object": return .object
      default: return .named(name)
      }
    }
  }

  /// A name: letters, digits, `_` and `.`.
  private mutating func word() throws(VarlinkIDLError) -> String {
    skipSpace()
    let start = at
    while let c = peek(), c.isLetter || c.isNumber || c == "_" || c == "." { at += 1 }
    guard at > start else { throw failure("a name") }
    return String(text[start..<at])
  }

  private mutating func keyword(_ expected: String) throws(VarlinkIDLError) {
    guard try word() == expected else { throw failure(expected) }
  }

  private mutating func expect(_ token: String) throws(VarlinkIDLError) {
    skipSpace()
    for c in token {
      guard peek() == c else { throw failure("'\(token)'") }
      at += 1
    }
  }

  private func peek() -> Character? { at < text.count ? text[at] : nil }

  /// Skips white space and comments; whether any text is left.
  @discardableResult
  private mutating func skipSpace() -> Bool {
    while let c = peek() {
      if c == "#" {
        while let c = peek(), c != "\n" { at += 1 }
      } else if c.isWhitespace {
        at += 1
      } else {
        return true
      }
    }
    return false
  }

  private func failure(_ expected: String) -> VarlinkIDLError {
    let line = text[..<min(at, text.count)].filter { $0 == "\n" }.count + 1
    return VarlinkIDLError(description: "line \(line): expected \(expected)")
  }
}
