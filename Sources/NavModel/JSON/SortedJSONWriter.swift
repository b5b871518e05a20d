/// Writes JSON straight into bytes for a type that knows its keys: the caller gives each
/// object's members in key order (as `JSONWriter.write` sorts them), so no `JSONValue` is
/// built and nothing is sorted, and the bytes are `JSONWriter.bytes` of the type's `json`
/// (seeded tests compare the two). Commas are placed by the writer.
package struct SortedJSONWriter {
  /// What has been written.
  package private(set) var bytes: [UInt8]
  /// Whether the next member or element follows another in its object or array.
  private var needsComma = false

  package init(capacity: Int) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  private mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }

  /// Opens an object (as a value or an array element).
  package mutating func beginObject() {
    separate()
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
  }

  package mutating func endObject() {
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  package mutating func beginArray() {
    separate()
    bytes.append(UInt8(ascii: "["))
    needsComma = false
  }

  package mutating func endArray() {
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// The key of the next member, given with its quotes and colon (`#""name":"#`): one
  /// literal appended whole, as the key needs no escape (each append costs a call).
  package mutating func key(_ quotedKey: StaticString) {
    assert(quotedKey.description.hasPrefix("\"") && quotedKey.description.hasSuffix("\":"), "\(quotedKey)")
    separate()
    bytes.append(literal: quotedKey)
    needsComma = false
  }

  package mutating func string(_ s: String) {
    separate()
    JSONWriter.writeString(s, into: &bytes)
    needsComma = true
  }

  /// The string, or `null` when there is none.
  package mutating func string(_ s: String?) {
    if let s { string(s) } else { null() }
  }

  package mutating func bool(_ b: Bool) {
    separate()
    if b { bytes.append(literal: "true") } else { bytes.append(literal: "false") }
    needsComma = true
  }

  package mutating func number(_ n: Double) {
    separate()
    JSONWriter.writeNumber(n, into: &bytes)
    needsComma = true
  }

  package mutating func null() {
    separate()
    bytes.append(literal: "null")
    needsComma = true
  }

  /// An array of strings.
  package mutating func strings(_ strings: [String]) {
    beginArray()
    for s in strings { string(s) }
    endArray()
  }

  /// A member whose value is a string (`null` when there is none); its key as `key` takes it.
  package mutating func member(_ key: StaticString, _ value: String?) {
    self.key(key)
    string(value)
  }

  package mutating func member(_ key: StaticString, _ value: Bool) {
    self.key(key)
    bool(value)
  }

  package mutating func member(_ key: StaticString, _ value: Double) {
    self.key(key)
    number(value)
  }

  /// A member omitted when the string is unset (as an optional property is).
  package mutating func memberIfSet(_ key: StaticString, _ value: String?) {
    guard let value else { return }
    self.key(key)
    string(value)
  }

  /// A member omitted when the number is unset.
  package mutating func memberIfSet(_ key: StaticString, _ value: Double?) {
    guard let value else { return }
    self.key(key)
    number(value)
  }
}
