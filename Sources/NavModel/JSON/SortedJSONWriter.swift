/// Writes JSON straight into bytes for a type that knows its keys: the caller gives each
/// object's members in key order (as `JSONWriter.write` sorts them), so no `JSONValue` is
/// built and nothing is sorted, and the bytes are `JSONWriter.bytes` of the type's `json`
/// (seeded tests compare the two). Commas are placed by the writer.
///
/// It writes into memory of its own, on the stack up to `stackBytes` (`bytes(_:)`), so a
/// piece costs its copy and a bounds check, not an array's append.
package struct SortedJSONWriter {
  private var base: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int
  /// Whether `base` was allocated on the heap (grown past the stack's bytes).
  private var onHeap = false
  /// Whether the next member or element follows another in its object or array.
  private var needsComma = false

  /// The stack memory `bytes(_:)` writes into before it grows onto the heap: a title change
  /// with a long title fits.
  static let stackBytes = 1024

  private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.base = base
    self.capacity = capacity
  }

  /// What `body` writes, as an array of its size.
  package static func bytes(_ body: (inout SortedJSONWriter) -> Void) -> [UInt8] {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stackBytes) { stack in
      // A temporary allocation of a nonzero count always has an address.
      var w = SortedJSONWriter(base: stack.baseAddress!, capacity: stack.count)
      body(&w)
      let bytes = [UInt8](UnsafeBufferPointer(start: w.base, count: w.count))
      if w.onHeap { w.base.deallocate() }
      return bytes
    }
  }

  @inline(__always)
  private mutating func reserve(_ n: Int) {
    if count + n > capacity { grow(to: count + n) }
  }

  private mutating func grow(to needed: Int) {
    let newCapacity = Swift.max(capacity * 2, needed)
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    grown.initialize(from: base, count: count)
    if onHeap { base.deallocate() }
    base = grown
    capacity = newCapacity
    onHeap = true
  }

  @inline(__always)
  private mutating func put(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inline(__always)
  private mutating func put(_ literal: StaticString) {
    put(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    reserve(bytes.count)
    (base + count).initialize(from: source, count: bytes.count)
    count += bytes.count
  }

  private mutating func separate() {
    if needsComma { put(UInt8(ascii: ",")) }
  }

  /// Opens an object (as a value or an array element).
  package mutating func beginObject() {
    separate()
    put(UInt8(ascii: "{"))
    needsComma = false
  }

  package mutating func endObject() {
    put(UInt8(ascii: "}"))
    needsComma = true
  }

  package mutating func beginArray() {
    separate()
    put(UInt8(ascii: "["))
    needsComma = false
  }

  package mutating func endArray() {
    put(UInt8(ascii: "]"))
    needsComma = true
  }

  /// The key of the next member, given with its quotes and colon (`#""name":"#`): one
  /// literal appended whole, as the key needs no escape (each append costs a call).
  package mutating func key(_ quotedKey: StaticString) {
    assert(quotedKey.description.hasPrefix("\"") && quotedKey.description.hasSuffix("\":"), "\(quotedKey)")
    separate()
    put(quotedKey)
    needsComma = false
  }

  /// The string, quoted and escaped as `JSONWriter.writeString` writes it: copied whole when
  /// nothing in it needs an escape (almost always), else escaped by `JSONWriter`.
  package mutating func string(_ s: String) {
    separate()
    var s = s
    let copied = s.withUTF8 { utf8 in
      guard !JSONWriter.needsEscape(utf8) else { return false }
      put(UInt8(ascii: "\""))
      put(utf8)
      put(UInt8(ascii: "\""))
      return true
    }
    if !copied {
      var escaped: [UInt8] = []
      JSONWriter.writeString(s, into: &escaped)
      escaped.withUnsafeBufferPointer { put($0) }
    }
    needsComma = true
  }

  /// The string, or `null` when there is none.
  package mutating func string(_ s: String?) {
    if let s { string(s) } else { null() }
  }

  package mutating func bool(_ b: Bool) {
    separate()
    if b { put("true") } else { put("false") }
    needsComma = true
  }

  /// The number as `JSONWriter.writeNumber` writes it.
  package mutating func number(_ n: Double) {
    separate()
    if let integer = JSONWriter.exactInteger(n) {
      JSONWriter.withDecimal(integer) { put($0) }
    } else {
      var written: [UInt8] = []
      JSONWriter.writeNumber(n, into: &written)
      written.withUnsafeBufferPointer { put($0) }
    }
    needsComma = true
  }

  package mutating func null() {
    separate()
    put("null")
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
