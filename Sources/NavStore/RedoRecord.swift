import NavModel

/// One commit group as a record of navd's redo log: framed, numbered and checksummed.
///
/// ```
/// u32 payload length | u32 CRC-32C of sequence and payload | u64 sequence | payload
/// payload: u32 row count, then per row (StoreRow, in field order):
///   scene, epoch: text | version: u64 | client: text | mutation id: optional text
///   digest: u64 | ops: bytes | outcome, snapshot: optional bytes | forget-through: u64
/// text, bytes: u32 length then the bytes; optional: u8 0 (absent) or 1 then the value;
/// every integer little-endian.
/// ```
///
/// A record is written with one `write`, so after a crash of navd it is there whole or not at
/// all; after a power loss its tail may be missing or garbage, which the length and checksum
/// show (`decode` says `.damaged`). Protocol/STORAGE.md §2.
enum RedoRecord {
  /// Bytes before the payload.
  static let headerSize = 16

  /// The record of group `sequence`, written field by field through a pointer into an array of
  /// its exact size. Every Mutate encodes one on the event loop: appending each field to an
  /// array cost ~2,400 instructions per round trip there (callgrind, `bench/profile.sh`). The
  /// tests hold it byte for byte to that simple appending encoder.
  static func encoded(sequence: UInt64, rows: [StoreRow]) -> [UInt8] {
    // The rows by index, here and below: `reduce` and `for row in rows` copied each row
    // out of the array (a retain and a release of each of its strings and arrays).
    var length = headerSize + 4
    for index in rows.indices { length += encodedSize(rows[index]) }
    return [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
      let base = UnsafeMutableRawPointer(buffer.baseAddress!)
      var writer = Writer(base: base, offset: 8)
      writer.put(sequence)
      writer.put(UInt32(rows.count))
      for index in rows.indices {
        writer.put(text: rows[index].scene)
        writer.put(text: rows[index].epoch)
        writer.put(rows[index].version)
        writer.put(text: rows[index].client)
        writer.put(optionalText: rows[index].mutationId)
        writer.put(rows[index].opsDigest)
        writer.put(bytes: rows[index].encodedOps)
        writer.put(optionalBytes: rows[index].outcome)
        writer.put(optionalBytes: rows[index].snapshot)
        writer.put(rows[index].forgetMutationIdsThrough)
      }
      precondition(writer.offset == length, "redo record: wrote \(writer.offset) bytes of \(length)")
      let checksum = CRC32C.checksum(UnsafeRawBufferPointer(start: base + 8, count: length - 8))
      base.storeBytes(of: UInt32(length - headerSize).littleEndian, toByteOffset: 0, as: UInt32.self)
      base.storeBytes(of: checksum.littleEndian, toByteOffset: 4, as: UInt32.self)
      count = length
    }
  }

  /// The sequence `record` (an `encoded` one) was numbered with.
  static func sequence(of record: [UInt8]) -> UInt64 {
    record.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
  }

  /// Gives `record` (an `encoded` one) the number `sequence`, its checksum taken again.
  static func renumber(_ record: inout [UInt8], to sequence: UInt64) {
    record.withUnsafeMutableBytes { bytes in
      bytes.storeBytes(of: sequence.littleEndian, toByteOffset: 8, as: UInt64.self)
      let checksum = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[8...]))
      bytes.storeBytes(of: checksum.littleEndian, toByteOffset: 4, as: UInt32.self)
    }
  }

  /// The bytes `row` takes in a record's payload.
  private static func encodedSize(_ row: StoreRow) -> Int {
    func text(_ text: String) -> Int { 4 + text.utf8.count }
    func bytes(_ bytes: [UInt8]?) -> Int { 1 + (bytes.map { 4 + $0.count } ?? 0) }
    return text(row.scene) + text(row.epoch) + 8 + text(row.client) + 1 + (row.mutationId.map(text) ?? 0) + 8 + 4
      + row.encodedOps.count + bytes(row.outcome) + bytes(row.snapshot) + 8
  }

  /// Writes a payload front to back into memory sized for it (`encodedSize`).
  private struct Writer {
    let base: UnsafeMutableRawPointer
    var offset: Int

    mutating func put(_ value: UInt64) {
      base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
      offset += 8
    }

    mutating func put(_ value: UInt32) {
      base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
      offset += 4
    }

    mutating func put(raw bytes: UnsafeRawBufferPointer) {
      put(UInt32(bytes.count))
      if let source = bytes.baseAddress { (base + offset).copyMemory(from: source, byteCount: bytes.count) }
      offset += bytes.count
    }

    mutating func put(text: String) {
      // In place (`withUTF8Bytes`): `withUTF8` on a copy cost a retain and a release of
      // each string of each row.
      text.withUTF8Bytes { put(raw: UnsafeRawBufferPointer($0)) }
    }

    mutating func put(bytes: [UInt8]) {
      bytes.withUnsafeBytes { put(raw: $0) }
    }

    mutating func put(optionalText text: String?) {
      base.storeBytes(of: text == nil ? 0 : 1, toByteOffset: offset, as: UInt8.self)
      offset += 1
      if let text { put(text: text) }
    }

    mutating func put(optionalBytes bytes: [UInt8]?) {
      base.storeBytes(of: bytes == nil ? 0 : 1, toByteOffset: offset, as: UInt8.self)
      offset += 1
      if let bytes { put(bytes: bytes) }
    }
  }

  /// What the bytes at the start of a buffer hold.
  enum Decoded: Equatable {
    /// A whole record, `length` bytes long.
    case record(sequence: UInt64, rows: [StoreRow], length: Int)
    /// No bytes: the log ends here.
    case end
    /// Not a whole, intact record (a torn write, or damage): why.
    case damaged(String)
  }

  /// Reads the record at the start of `bytes`.
  static func decode(_ bytes: UnsafeRawBufferPointer) -> Decoded {
    guard !bytes.isEmpty else { return .end }
    guard bytes.count >= headerSize else {
      return .damaged("\(bytes.count) bytes, shorter than a record's \(headerSize)-byte header")
    }
    let payloadLength = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)))
    let checksum = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
    let length = headerSize + payloadLength
    guard length <= bytes.count else {
      return .damaged("a record of \(length) bytes with only \(bytes.count) left")
    }
    guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[8..<length])) == checksum else {
      return .damaged("a record whose checksum does not match")
    }
    var reader = Reader(bytes: UnsafeRawBufferPointer(rebasing: bytes[8..<length]))
    guard let sequence = reader.integer(), let count = reader.count() else {
      return .damaged("a record too short for its row count")
    }
    var rows: [StoreRow] = []
    for _ in 0..<count {
      guard let row = reader.row() else { return .damaged("a record whose row \(rows.count + 1) is cut short") }
      rows.append(row)
    }
    guard reader.atEnd else { return .damaged("a record with bytes after its \(count) rows") }
    return .record(sequence: sequence, rows: rows, length: length)
  }

  /// Reads a payload front to back; every read is nil past its end.
  private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var atEnd: Bool { offset == bytes.count }

    mutating func integer() -> UInt64? {
      guard offset + 8 <= bytes.count else { return nil }
      defer { offset += 8 }
      return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    mutating func count() -> Int? {
      guard offset + 4 <= bytes.count else { return nil }
      defer { offset += 4 }
      return Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    mutating func blob() -> [UInt8]? {
      guard let length = count(), offset + length <= bytes.count else { return nil }
      defer { offset += length }
      return Array(bytes[offset..<offset + length])
    }

    /// Straight from the bytes, not through an array: the applier decodes every record it
    /// writes, and names of up to 15 bytes (a scene's, a client's) then allocate nothing.
    mutating func text() -> String? {
      guard let length = count(), offset + length <= bytes.count else { return nil }
      defer { offset += length }
      return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
    }

    mutating func present() -> Bool? {
      guard offset < bytes.count, bytes[offset] <= 1 else { return nil }
      defer { offset += 1 }
      return bytes[offset] == 1
    }

    mutating func row() -> StoreRow? {
      guard let scene = text(), let epoch = text(), let version = integer(), let client = text(),
        let hasId = present()
      else { return nil }
      let mutationId = hasId ? text() : nil
      guard !hasId || mutationId != nil, let digest = integer(), let ops = blob(), let hasOutcome = present()
      else { return nil }
      let outcome = hasOutcome ? blob() : nil
      guard !hasOutcome || outcome != nil, let hasSnapshot = present() else { return nil }
      let snapshot = hasSnapshot ? blob() : nil
      guard !hasSnapshot || snapshot != nil, let forget = integer() else { return nil }
      return StoreRow(
        scene: scene, epoch: epoch, version: version, client: client, mutationId: mutationId, opsDigest: digest,
        encodedOps: ops, outcome: outcome, snapshot: snapshot, forgetMutationIdsThrough: forget)
    }
  }
}
