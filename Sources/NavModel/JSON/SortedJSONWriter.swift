/// Writes JSON straight into bytes, members in key order as `JSONWriter.write` sorts them:
/// the one writer of an op (`Op.encoded`), of an update on the stream
/// (`WireStreamEncoder.writeUpdate`) and of a Mutate reply. A caller that knows its keys
/// gives each object's members in key order, so no `JSONValue` is built and nothing is
/// sorted; a `JSONValue` inside (`value(_:)`) is sorted as `JSONWriter` sorts it. The bytes
/// are `JSONWriter.bytes` of the caller's reference value (seeded tests compare the two).
/// Commas are placed by the writer.
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
  package static let stackBytes = 1024

  private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.base = base
    self.capacity = capacity
  }

  /// What `body` writes, as an array of its size.
  package static func bytes(_ body: (inout SortedJSONWriter) -> Void) -> [UInt8] {
    writing(body) { [UInt8]($0) }
  }

  /// What `body` writes, appended to `out` at once (for a caller that writes into an array
  /// of its own, as a typed reply does).
  package static func append(to out: inout [UInt8], _ body: (inout SortedJSONWriter) -> Void) {
    writing(body) { out.append(contentsOf: $0) }
  }

  /// Hands `use` what `body` writes, then frees any memory it grew onto.
  private static func writing<Result>(
    _ body: (inout SortedJSONWriter) -> Void, _ use: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stackBytes) { stack in
      // A temporary allocation of a nonzero count always has an address.
      var w = SortedJSONWriter(base: stack.baseAddress!, capacity: stack.count)
      body(&w)
      let result = use(UnsafeBufferPointer(start: w.base, count: w.count))
      if w.onHeap { w.base.deallocate() }
      return result
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

  /// JSON the caller lays out itself, written as it is: constant punctuation, keys and
  /// values run together (`#"],"toVersion":"#`), one copy where each would be its own
  /// write. The caller puts any comma before it; what follows it gets one unless it ends
  /// in `{`, `[`, `:` or `,`. Always inlined, so the copy is compiled for its length.
  @inline(__always)
  package mutating func fragment(_ json: StaticString) {
    put(json)
    let last = json.utf8Start[json.utf8CodeUnitCount - 1]
    needsComma =
      !(last == UInt8(ascii: "{") || last == UInt8(ascii: "[") || last == UInt8(ascii: ":")
      || last == UInt8(ascii: ","))
  }

  /// The key of the next member, given with its quotes and colon (`#""name":"#`): one
  /// literal appended whole, as the key needs no escape (each append costs a call).
  package mutating func key(_ quotedKey: StaticString) {
    assert(quotedKey.description.hasPrefix("\"") && quotedKey.description.hasSuffix("\":"), "\(quotedKey)")
    separate()
    put(quotedKey)
    needsComma = false
  }

  /// A key not known until it is written (a member of a `JSONValue` object), escaped as a string.
  package mutating func key(named name: String) {
    string(name)
    put(UInt8(ascii: ":"))
    needsComma = false
  }

  /// The string, quoted and escaped as `JSONWriter.writeString` writes it: copied whole when
  /// nothing in it needs an escape (almost always), else escaped by `JSONWriter`.
  package mutating func string(_ s: String) {
    separate()
    let copied = s.withUTF8Bytes { utf8 in
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

  /// A version: in decimal up to 2^53, where the double `JSONWriter` writes is exact, and
  /// as that double beyond.
  package mutating func version(_ v: UInt64) {
    guard v <= 1 << 53 else { return number(Double(v)) }
    separate()
    JSONWriter.withDecimal(Int64(v)) { put($0) }
    needsComma = true
  }

  /// A patch operation's `path` or `from`, as `JSONPointer.writeJSONString` writes it:
  /// straight into the free memory when it needs no escape and fits (almost always).
  package mutating func pointer(_ p: JSONPointer) {
    separate()
    if let written = p.writePlainJSONString(
      into: UnsafeMutableBufferPointer(start: base + count, count: capacity - count))
    {
      count += written
    } else {
      var escaped: [UInt8] = []
      p.writeJSONString(into: &escaped)
      escaped.withUnsafeBufferPointer { put($0) }
    }
    needsComma = true
  }

  /// Any value, as `JSONWriter.write` writes it: an object's members sorted by key.
  package mutating func value(_ v: JSONValue) {
    switch v {
    case .null: null()
    case .bool(let b): bool(b)
    case .number(let n): number(n)
    case .string(let s): string(s)
    case .array(let elements):
      beginArray()
      for element in elements { value(element) }
      endArray()
    case .object(let members):
      beginObject()
      // Sorting the members, not the keys, saves looking each key up again.
      for member in members.sorted(by: { $0.key < $1.key }) {
        key(named: member.key)
        value(member.value)
      }
      endObject()
    }
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
