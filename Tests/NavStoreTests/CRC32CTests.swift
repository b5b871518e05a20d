import Foundation
import NavTestSupport
import Testing

@testable import NavStore

@Suite("CRC-32C: the redo record's checksum (STORAGE.md §3, \"The redo log's records\")")
struct CRC32CTests {
  /// The checksum one bit at a time, as the polynomial defines it: the reference for the tables.
  static func reference(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    }
    return ~crc
  }

  static func checksum(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { CRC32C.checksum($0) } }

  @Test("known vectors: \"123456789\" is 0xE3069283, nothing is 0, 32 zero bytes are 0x8A9136AA")
  func knownVectors() {
    #expect(Self.checksum(Array("123456789".utf8)) == 0xE306_9283)
    #expect(Self.checksum([]) == 0)
    #expect(Self.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    #expect(Self.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    #expect(Self.reference(Array("123456789".utf8)) == 0xE306_9283)
  }

  @Test("seeded random bytes: every length 0...64 at every offset 0..<8 matches the bit-at-a-time reference")
  func matchesReference() {
    let seed: UInt64 = 0x5EED_C3C3
    var random = SplitMix64(seed: seed)
    for round in 0..<20 {
      let buffer = (0..<80).map { _ in UInt8.random(in: 0...255, using: &random) }
      for offset in 0..<8 {
        for length in 0...64 {
          let slice = buffer[offset..<offset + length]
          let fast = buffer.withUnsafeBytes {
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[offset..<offset + length]))
          }
          #expect(fast == Self.reference(slice), "seed \(seed) round \(round) offset \(offset) length \(length)")
        }
      }
    }
  }

  @Test("the portable tables match the bit-at-a-time reference, and known vectors")
  func tablesMatchReference() {
    let seed: UInt64 = 0x7AB1_E5
    var random = SplitMix64(seed: seed)
    #expect(Array("123456789".utf8).withUnsafeBytes { CRC32C.tableChecksum($0) } == 0xE306_9283)
    for round in 0..<200 {
      let bytes = (0..<Int.random(in: 0...100, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
      #expect(
        bytes.withUnsafeBytes { CRC32C.tableChecksum($0) } == Self.reference(bytes), "seed \(seed) round \(round)")
    }
  }

  @Test("seeded random buffers up to 5 KiB, at any offset, continuing any checksum: checksum equals the tables")
  func matchesTables() {
    let seed: UInt64 = 0xC0FF_EE32
    var random = SplitMix64(seed: seed)
    for round in 0..<500 {
      let length = round < 100 ? round : Int.random(in: 0...5_000, using: &random)
      let offset = Int.random(in: 0..<8, using: &random)
      let buffer = (0..<offset + length).map { _ in UInt8.random(in: 0...255, using: &random) }
      let start = round % 3 == 0 ? 0 : UInt32.random(in: 0...UInt32.max, using: &random)
      buffer.withUnsafeBytes { raw in
        let bytes = UnsafeRawBufferPointer(rebasing: raw[offset...])
        #expect(
          CRC32C.checksum(bytes, continuing: start) == CRC32C.tableChecksum(bytes, continuing: start),
          "seed \(seed) round \(round) length \(length) offset \(offset)")
      }
    }
  }

  @Test("on a CPU with SSE 4.2 (per /proc/cpuinfo) the checksum uses its crc32 instruction")
  func usesTheInstructionWhenThere() throws {
    #if arch(x86_64)
      let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
      #expect(CRC32C.usesHardware == cpuinfo.contains(" sse4_2"))
    #else
      #expect(!CRC32C.usesHardware)
    #endif
  }

  @Test("continuing: the checksum of a split buffer, the second part continuing the first, is the whole's")
  func continuing() {
    let seed: UInt64 = 77
    var random = SplitMix64(seed: seed)
    let bytes = (0..<100).map { _ in UInt8.random(in: 0...255, using: &random) }
    for split in 0...bytes.count {
      let joined = bytes.withUnsafeBytes { raw in
        CRC32C.checksum(
          UnsafeRawBufferPointer(rebasing: raw[split...]),
          continuing: CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[..<split])))
      }
      #expect(joined == Self.reference(bytes), "seed \(seed) split \(split)")
    }
  }
}
