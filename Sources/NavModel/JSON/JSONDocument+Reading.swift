/// Reading a `JSONDocument` value by value: the pull-parser side typed decoders use.
///
/// The small accessors a typed reader calls for every member (`kind`, `members`, `key`,
/// `string(_:is:)`, …) are inlined: as calls they were a quarter of the typed reader's
/// work on a title change (BENCHMARKS.md, "Fast paths"). They are `@inlinable`, so NavWire's
/// readers (a call's envelope, `MutateCall`'s parameters) inline them too; what they read
/// (`tokens`, `Token`) is `@usableFromInline` for that, and no more public than before.
extension JSONDocument {
  /// The value's JSON type.
  @inlinable @inline(__always)
  public func kind(_ index: Index) -> Kind { tokens[index].kind }

  /// Whether the value is `null`.
  @inlinable @inline(__always)
  public func isNull(_ index: Index) -> Bool { tokens[index].kind == .null }

  /// The JSON type name, as `JSONValue.typeName` says it ("number", "object", …).
  public func typeName(_ index: Index) -> String {
    switch tokens[index].kind {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  /// The string (a value or a key), nil when the value is not a string.
  public func string(_ index: Index) -> String? {
    let token = tokens[index]
    guard token.kind == .string else { return nil }
    // Through the buffer: decoding an `ArraySlice` of the bytes costs more.
    let span = JSONStringSpan(start: token.start, end: token.end, escaped: token.escaped, ascii: token.ascii)
    return bytes.withUnsafeBufferPointer { JSONLexer.string(span, in: $0) }
  }

  /// The number, nil when the value is not a number.
  public func number(_ index: Index) -> Double? {
    let token = tokens[index]
    guard token.kind == .number else { return nil }
    return bytes.withUnsafeBufferPointer { JSONLexer.numberValue($0, token.start..<token.end) }
  }

  /// The bool, nil when the value is not a bool.
  public func bool(_ index: Index) -> Bool? {
    let token = tokens[index]
    guard token.kind == .bool else { return nil }
    return token.flag
  }

  /// How many members (object) or elements (array) the value has; 0 for any other.
  public func count(_ index: Index) -> Int { tokens[index].count }

  /// Whether the value (or key) is the string `name`, compared as strings are: an escaped or
  /// non-ASCII one is decoded first, so `"\u0074itle"` is `title`.
  @inlinable @inline(__always)
  public func string(_ index: Index, is name: StaticString) -> Bool {
    let token = tokens[index]
    guard token.kind == .string else { return false }
    guard !token.escaped, token.ascii else { return string(index) == name.description }
    guard token.end - token.start == name.utf8CodeUnitCount else { return false }
    return bytes.withUnsafeBufferPointer { Self.bytes($0, token, equal: name) }
  }

  /// The position in `names` of key `key`, nil when it is none of them.
  @inlinable @inline(__always)
  public func key(_ key: Index, in names: [StaticString]) -> Int? {
    let token = tokens[key]
    guard token.kind == .string, !token.escaped, token.ascii else { return names.firstIndex { string(key, is: $0) } }
    // A plain key, as nearly every one is: its token read once and its bytes compared
    // with each name of its length (cheaper than asking `string(_:is:)` name by name).
    return bytes.withUnsafeBufferPointer { buffer in
      for position in names.indices where Self.bytes(buffer, token, equal: names[position]) { return position }
      return nil
    }
  }

  /// Whether the plain string `token` is `name`, compared through pointers: subscripting
  /// the array checks bounds on every byte.
  @inlinable @inline(__always)
  static func bytes(_ buffer: UnsafeBufferPointer<UInt8>, _ token: Token, equal name: StaticString) -> Bool {
    let length = name.utf8CodeUnitCount
    guard token.end - token.start == length else { return false }
    guard let start = buffer.baseAddress.map({ $0 + token.start }) else { return length == 0 }
    let name = name.utf8Start
    for offset in 0..<length where start[offset] != name[offset] { return false }
    return true
  }

  /// Whether the string holds only ASCII and no escapes: its bytes are the string.
  public func isPlainString(_ index: Index) -> Bool {
    let token = tokens[index]
    return token.kind == .string && !token.escaped && token.ascii
  }

  /// The bytes between a string's quotes (escapes as written).
  public func rawBytes(_ index: Index) -> ArraySlice<UInt8> { bytes[tokens[index].start..<tokens[index].end] }

  /// The value of member `name` of an object, nil when absent (or not an object).
  @inlinable @inline(__always)
  public func member(_ name: StaticString, of object: Index) -> Index? {
    guard tokens[object].kind == .object else { return nil }
    for (key, value) in members(object) where string(key, is: name) { return value }
    return nil
  }

  /// An object's members in document order, as (key, value) positions; none for any other value.
  @inlinable @inline(__always)
  public func members(_ object: Index) -> Members {
    let token = tokens[object]
    return Members(tokens: tokens, index: object + 1, end: token.kind == .object ? token.next : object + 1)
  }

  /// An array's elements in order; none for any other value.
  @inlinable @inline(__always)
  public func elements(_ array: Index) -> Elements {
    let token = tokens[array]
    return Elements(tokens: tokens, index: array + 1, end: token.kind == .array ? token.next : array + 1)
  }

  /// The members of an object: each key's position and its value's.
  public struct Members: Sequence, IteratorProtocol {
    @usableFromInline let tokens: [Token]
    @usableFromInline var index: Int
    @usableFromInline let end: Int

    @usableFromInline
    init(tokens: [Token], index: Int, end: Int) {
      self.tokens = tokens
      self.index = index
      self.end = end
    }

    /// The next (key, value), skipping whatever the previous value held.
    @inlinable @inline(__always)
    public mutating func next() -> (key: Index, value: Index)? {
      guard index < end else { return nil }
      let key = index
      index = tokens[key + 1].next
      return (key, key + 1)
    }
  }

  /// The elements of an array, by position.
  public struct Elements: Sequence, IteratorProtocol {
    @usableFromInline let tokens: [Token]
    @usableFromInline var index: Int
    @usableFromInline let end: Int

    @usableFromInline
    init(tokens: [Token], index: Int, end: Int) {
      self.tokens = tokens
      self.index = index
      self.end = end
    }

    /// The next element, skipping whatever the previous one held.
    @inlinable @inline(__always)
    public mutating func next() -> Index? {
      guard index < end else { return nil }
      let element = index
      index = tokens[element].next
      return element
    }
  }

  /// The value as a `JSONValue` tree, for readers that need one (the generic path).
  public func value(_ index: Index) -> JSONValue {
    let token = tokens[index]
    switch token.kind {
    case .null: return .null
    case .bool: return .bool(token.flag)
    case .number: return .number(number(index) ?? 0)
    case .string: return .string(string(index) ?? "")
    case .array:
      var elements: [JSONValue] = []
      elements.reserveCapacity(token.count)
      for element in self.elements(index) { elements.append(value(element)) }
      return .array(elements)
    case .object:
      var members: [String: JSONValue] = [:]
      members.reserveCapacity(token.count)
      for (key, member) in self.members(index) { members[string(key) ?? ""] = value(member) }
      return .object(members)
    }
  }
}
