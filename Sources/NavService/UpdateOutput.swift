import NavEngine
import NavModel

/// Where `WireStreamEncoder.writeUpdate` writes an update's parameters: a growing
/// array (any update), or, for a plain one (no event, scalar values, nothing to
/// escape, as a title change's), a buffer on the stack (`UpdateCursor`). One writer
/// lays the update out for both, so they cannot disagree on its bytes.
protocol UpdateOutput {
  mutating func append(literal: StaticString)
  mutating func append(byte: UInt8)
  /// A version, as `JSONWriter` writes it as a number.
  mutating func append(version: UInt64)
  /// A patch operation's `path` or `from`, as `JSONPointer.writeJSONString` writes it.
  mutating func append(pointer: JSONPointer)
  /// A patch operation's `value`, as `JSONWriter.write` writes it.
  mutating func append(value: JSONValue)
  /// An event, as `JSONWriter.write(event.json)` writes it.
  mutating func append(event: SceneEvent)
}

extension [UInt8]: UpdateOutput {
  mutating func append(byte: UInt8) { append(byte) }

  /// In decimal, straight from the integer up to 2^53 (where the double is exact),
  /// through the double beyond.
  mutating func append(version: UInt64) {
    if version <= 1 << 53 {
      JSONWriter.writeInteger(Int64(version), into: &self)
    } else {
      JSONWriter.write(.number(Double(version)), into: &self)
    }
  }

  mutating func append(pointer: JSONPointer) { pointer.writeJSONString(into: &self) }

  mutating func append(value: JSONValue) { JSONWriter.write(value, into: &self) }

  mutating func append(event: SceneEvent) { JSONWriter.write(event.json, into: &self) }
}

/// Writes a plain update from `next` up to `end`. Anything that is not plain (a
/// version or number that is not an integer up to 2^53, an array, an object, an event,
/// a string or pointer that needs an escape) or does not fit is left out, and with it
/// the rest: `plain` says whether the update was written whole.
struct UpdateCursor: UpdateOutput {
  private(set) var next: UnsafeMutablePointer<UInt8>
  private let end: UnsafeMutablePointer<UInt8>
  /// Whether everything so far was plain and fitted.
  private(set) var plain = true

  /// A cursor at the start of `buffer`.
  init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    guard let base = buffer.baseAddress else { preconditionFailure("an update buffer without memory") }
    next = base
    end = base + buffer.count
  }

  /// Always inlined: each literal is then a constant where it is appended, and its room
  /// check and copy are compiled for its length.
  @inline(__always)
  mutating func append(literal: StaticString) {
    guard room(literal.utf8CodeUnitCount) else { return }
    next.initialize(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
    next += literal.utf8CodeUnitCount
  }

  mutating func append(byte: UInt8) {
    guard room(1) else { return }
    next.initialize(to: byte)
    next += 1
  }

  mutating func append(version: UInt64) {
    guard version <= 1 << 53 else {
      plain = false
      return
    }
    write(version)
  }

  mutating func append(pointer: JSONPointer) {
    guard plain,
      let count = pointer.writePlainJSONString(into: UnsafeMutableBufferPointer(start: next, count: end - next))
    else {
      plain = false
      return
    }
    next += count
  }

  /// Always inlined: as a call, it retained a string value to read it and released it after.
  @inline(__always)
  mutating func append(value: JSONValue) {
    switch value {
    case .null: append(literal: "null")
    case .bool(let bool): append(literal: bool ? "true" : "false")
    case .number(let number):
      guard let integer = JSONWriter.exactInteger(number) else {
        plain = false
        return
      }
      if integer < 0 { append(byte: UInt8(ascii: "-")) }
      write(integer.magnitude)
    case .string(let string):
      string.withUTF8Bytes { utf8 in
        guard room(utf8.count + 2), !JSONWriter.needsEscape(utf8) else {
          plain = false
          return
        }
        next.initialize(to: UInt8(ascii: "\""))
        if let bytes = utf8.baseAddress { (next + 1).initialize(from: bytes, count: utf8.count) }
        next[utf8.count + 1] = UInt8(ascii: "\"")
        next += utf8.count + 2
      }
    case .array, .object: plain = false
    }
  }

  mutating func append(event: SceneEvent) { plain = false }

  /// Whether the update is plain so far and `count` more bytes fit; it is not plain once they do not.
  private mutating func room(_ count: Int) -> Bool {
    plain = plain && end - next >= count
    return plain
  }

  /// `value` in decimal, written from its last digit back.
  private mutating func write(_ value: UInt64) {
    var digits = 1
    var bound: UInt64 = 10
    while digits < 20, value >= bound {
      digits += 1
      bound &*= 10
    }
    guard room(digits) else { return }
    var rest = value
    var digit = next + digits
    repeat {
      digit -= 1
      digit.initialize(to: UInt8(ascii: "0") + UInt8(rest % 10))
      rest /= 10
    } while rest != 0
    next += digits
  }
}
