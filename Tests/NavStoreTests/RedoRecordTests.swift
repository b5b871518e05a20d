import NavTestSupport
import Testing

@testable import NavStore

@Suite("RedoRecord: one group as a framed, checksummed record (STORAGE.md §3, \"The redo log's records\")")
struct RedoRecordTests {
  /// Pieces random texts are made of: ASCII, multi-byte, NUL.
  static let pieces = ["a", "Z", "é", "日本", "🙂", "\u{0}", " ", "\"", "\\n"]

  static func text(_ random: inout SplitMix64) -> String {
    (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
  }

  /// Empty, small, or (one time in eight) larger than 64 KiB.
  static func blob(_ random: inout SplitMix64) -> [UInt8] {
    let count =
      Int.random(in: 0..<8, using: &random) == 0
      ? Int.random(in: 65_536...200_000, using: &random) : Int.random(in: 0...40, using: &random)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
  }

  static func row(_ random: inout SplitMix64) -> StoreRow {
    let id = Bool.random(using: &random) ? text(&random) : nil
    return StoreRow(
      scene: text(&random), epoch: text(&random), version: random.next(), client: text(&random), mutationId: id,
      opsDigest: random.next(), encodedOps: blob(&random), outcome: id == nil ? nil : blob(&random),
      snapshot: Bool.random(using: &random) ? blob(&random) : nil,
      forgetMutationIdsThrough: Bool.random(using: &random) ? 0 : random.next())
  }

  static func decode(_ bytes: [UInt8], from offset: Int = 0) -> RedoRecord.Decoded {
    bytes.withUnsafeBytes { RedoRecord.decode(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
  }

  static func isDamaged(_ decoded: RedoRecord.Decoded) -> Bool {
    if case .damaged = decoded { return true }
    return false
  }

  @Test("seeded random groups (optionals present and absent; empty, non-ASCII and NUL texts; large blobs) round-trip")
  func roundTrip() {
    let seed: UInt64 = 20_261_130
    var random = SplitMix64(seed: seed)
    for round in 0..<60 {
      let rows = (0..<Int.random(in: 0...5, using: &random)).map { _ in Self.row(&random) }
      let sequence = random.next()
      var bytes: [UInt8] = Bool.random(using: &random) ? [] : [1, 2, 3]  // appends after what the buffer holds
      let start = bytes.count
      bytes += RedoRecord.encoded(sequence: sequence, rows: rows)
      #expect(Array(bytes[..<start]) == Array([1, 2, 3].prefix(start)), "seed \(seed) round \(round)")
      #expect(
        Self.decode(bytes, from: start) == .record(sequence: sequence, rows: rows, length: bytes.count - start),
        "seed \(seed) round \(round)")
      #expect(
        Self.decode(bytes + [9, 9], from: start) == Self.decode(bytes, from: start), "seed \(seed) round \(round)")
    }
  }

  /// The record appended field by field to an array, as the format reads: the reference for
  /// `RedoRecord.encoded`, which writes through a pointer into an array of the record's size.
  static func referenceRecord(sequence: UInt64, rows: [StoreRow]) -> [UInt8] {
    var buffer: [UInt8] = []
    func integer(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { buffer += $0 } }
    func count(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { buffer += $0 } }
    func bytes(_ bytes: [UInt8]) {
      count(bytes.count)
      buffer += bytes
    }
    func optional(_ value: [UInt8]?) {
      buffer.append(value == nil ? 0 : 1)
      if let value { bytes(value) }
    }
    integer(sequence)
    count(rows.count)
    for row in rows {
      bytes(Array(row.scene.utf8))
      bytes(Array(row.epoch.utf8))
      integer(row.version)
      bytes(Array(row.client.utf8))
      optional(row.mutationId.map { Array($0.utf8) })
      integer(row.opsDigest)
      bytes(row.encodedOps)
      optional(row.outcome)
      optional(row.snapshot)
      integer(row.forgetMutationIdsThrough)
    }
    let checksum = CRC32CTests.reference(buffer)
    var header: [UInt8] = []
    withUnsafeBytes(of: UInt32(buffer.count - 8).littleEndian) { header += $0 }
    withUnsafeBytes(of: checksum.littleEndian) { header += $0 }
    return header + buffer
  }

  @Test("seeded random groups: the record is byte for byte the field-by-field reference encoder's")
  func matchesReferenceEncoder() {
    let seed: UInt64 = 0x2E_C0DE
    var random = SplitMix64(seed: seed)
    for round in 0..<80 {
      let rows = (0..<Int.random(in: 0...4, using: &random)).map { _ in Self.row(&random) }
      let sequence = random.next()
      #expect(
        RedoRecord.encoded(sequence: sequence, rows: rows) == Self.referenceRecord(sequence: sequence, rows: rows),
        "seed \(seed) round \(round)")
    }
  }

  @Test("seeded random groups: a record renumbered is byte for byte the record encoded with that sequence")
  func renumbered() {
    let seed: UInt64 = 0x5E_0A1
    var random = SplitMix64(seed: seed)
    for round in 0..<80 {
      let rows = (0..<Int.random(in: 0...4, using: &random)).map { _ in Self.row(&random) }
      let (first, second) = (random.next(), random.next())
      var record = RedoRecord.encoded(sequence: first, rows: rows)
      #expect(RedoRecord.sequence(of: record) == first)
      RedoRecord.renumber(&record, to: second)
      #expect(RedoRecord.sequence(of: record) == second)
      #expect(record == RedoRecord.encoded(sequence: second, rows: rows), "seed \(seed) round \(round)")
    }
  }

  @Test("every truncation of a record is .damaged (zero bytes: .end), never a record")
  func truncations() {
    let seed: UInt64 = 4242
    var random = SplitMix64(seed: seed)
    for round in 0..<10 {
      var bytes: [UInt8] = []
      let rows = (0..<Int.random(in: 1...3, using: &random)).map { _ in
        var row = Self.row(&random)
        row.snapshot = row.snapshot.map { Array($0.prefix(30)) }
        row.encodedOps = Array(row.encodedOps.prefix(30))
        return row
      }
      bytes += RedoRecord.encoded(sequence: UInt64(round), rows: rows)
      #expect(Self.decode([]) == .end)
      for length in 1..<bytes.count {
        #expect(Self.isDamaged(Self.decode(Array(bytes[..<length]))), "seed \(seed) round \(round) length \(length)")
      }
    }
  }

  @Test("a flipped bit anywhere in a record (length, checksum, sequence, rows) is .damaged")
  func flippedBits() {
    let seed: UInt64 = 99
    var random = SplitMix64(seed: seed)
    var row = Self.row(&random)
    row.encodedOps = Array(row.encodedOps.prefix(50))
    row.snapshot = [1, 2, 3]
    var bytes: [UInt8] = []
    bytes += RedoRecord.encoded(sequence: 12, rows: [row, redoRow(3)])
    for bit in 0..<(bytes.count * 8) {
      var damaged = bytes
      damaged[bit / 8] ^= 1 << (bit % 8)
      #expect(Self.isDamaged(Self.decode(damaged)), "seed \(seed) bit \(bit) of \(bytes.count * 8)")
    }
  }

  @Test("a checksummed record whose rows do not fill its payload exactly is .damaged, naming why")
  func inconsistentPayload() {
    var bytes: [UInt8] = []
    bytes += RedoRecord.encoded(sequence: 5, rows: [redoRow(5)])
    /// Sets the row count (bytes 16..<20, after the sequence) and checksums again, as a writer with a bug would.
    func withCount(_ count: UInt32) -> [UInt8] {
      var changed = bytes
      withUnsafeBytes(of: count.littleEndian) { changed.replaceSubrange(16..<20, with: $0) }
      let crc = changed.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[8...])) }
      withUnsafeBytes(of: crc.littleEndian) { changed.replaceSubrange(4..<8, with: $0) }
      return changed
    }
    #expect(Self.decode(withCount(1)) == Self.decode(bytes))
    #expect(Self.decode(withCount(2)) == .damaged("a record whose row 2 is cut short"))
    #expect(Self.decode(withCount(0)) == .damaged("a record with bytes after its 0 rows"))
  }

  @Test("two records back to back decode in order, then .end")
  func backToBack() {
    var bytes: [UInt8] = []
    bytes += RedoRecord.encoded(sequence: 7, rows: [redoRow(7)])
    let first = bytes.count
    bytes += RedoRecord.encoded(sequence: 8, rows: [redoRow(8), redoRow(1, scene: "other")])
    #expect(Self.decode(bytes) == .record(sequence: 7, rows: [redoRow(7)], length: first))
    #expect(
      Self.decode(bytes, from: first)
        == .record(sequence: 8, rows: [redoRow(8), redoRow(1, scene: "other")], length: bytes.count - first))
    #expect(Self.decode(bytes, from: bytes.count) == .end)
  }
}
