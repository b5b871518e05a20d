extension NavdService {
  /// The client of a call that names none (`clientId` absent): `connection:<id>`, the bytes
  /// `"connection:\(id)"` gives, written straight into a string of exactly that size (small,
  /// so inline, for ids below 10,000; interpolating cost ~450 instructions on every such
  /// Mutate). A seeded test compares the two.
  static func connectionClient(_ id: UInt64) -> String {
    let prefix: StaticString = "connection:"
    var digits = 1
    var divisor: UInt64 = 1
    while id / divisor >= 10 {
      divisor *= 10
      digits += 1
    }
    return String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + digits) { buffer in
      prefix.withUTF8Buffer { _ = buffer.initialize(fromContentsOf: $0) }
      var count = prefix.utf8CodeUnitCount
      repeat {
        buffer[count] = UInt8(ascii: "0") + UInt8(id / divisor % 10)
        count += 1
        divisor /= 10
      } while divisor > 0
      return count
    }
  }
}
