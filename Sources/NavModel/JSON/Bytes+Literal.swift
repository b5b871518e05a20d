extension [UInt8] {
  /// Appends a literal's UTF-8 in one copy (appending a `String`'s `utf8` view goes through
  /// the generic sequence path). For navd's own writers
  /// (ops, replies); `package`, so a client of the library does not see it.
  package mutating func append(literal: StaticString) {
    literal.withUTF8Buffer { append(contentsOf: $0) }
  }
}
