import CNavSys

/// CRC-32C (Castagnoli, the polynomial of ext4 and iSCSI): with the CPU's `crc32` instruction
/// when it has one (SSE 4.2), else table-driven eight bytes at a time.
///
/// Guards each redo record against a torn or damaged write: a record whose checksum does not
/// match is where the log ends (STORAGE.md §2). The instruction exists because every Mutate
/// checksums its record on the event loop: the tables cost 1,358 instructions of a round
/// trip's 63,600 there (callgrind, `bench/profile.sh`); the tables stay as the portable path
/// and as the reference the tests hold the instruction to.
enum CRC32C {
  /// The reflected polynomial 0x1EDC6F41.
  private static let polynomial: UInt32 = 0x82F6_3B78

  /// Eight tables of 256 entries: `tables[k][b]` is the CRC of byte `b` followed by `k` zero bytes.
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1 }
      tables[byte] = crc
    }
    for k in 1..<8 {
      for byte in 0..<256 {
        let previous = tables[(k - 1) * 256 + byte]
        tables[k * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xff)]
      }
    }
    return tables
  }()

  /// Whether this CPU computes the checksum with its `crc32` instruction.
  static let usesHardware = cnav_crc32c_hardware_available() == 1

  /// The checksum of `bytes`, continuing from `crc` (the checksum of what came before, 0 to start).
  static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    guard usesHardware, let base = bytes.baseAddress else { return tableChecksum(bytes, continuing: crc) }
    return ~cnav_crc32c_hardware(~crc, base, bytes.count)
  }

  /// `checksum` with the tables alone, on any CPU.
  static func tableChecksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    var crc = ~crc
    var index = 0
    tables.withUnsafeBufferPointer { table in
      while index + 8 <= bytes.count {
        let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ UInt64(crc)
        crc =
          table[7 * 256 + Int(word & 0xff)] ^ table[6 * 256 + Int((word >> 8) & 0xff)]
          ^ table[5 * 256 + Int((word >> 16) & 0xff)] ^ table[4 * 256 + Int((word >> 24) & 0xff)]
          ^ table[3 * 256 + Int((word >> 32) & 0xff)] ^ table[2 * 256 + Int((word >> 40) & 0xff)]
          ^ table[1 * 256 + Int((word >> 48) & 0xff)] ^ table[Int(word >> 56)]
        index += 8
      }
      while index < bytes.count {
        crc = (crc >> 8) ^ table[Int((crc ^ UInt32(bytes[index])) & 0xff)]
        index += 1
      }
    }
    return ~crc
  }
}
