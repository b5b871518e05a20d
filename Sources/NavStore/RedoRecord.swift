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

  /// Appends the record of group `sequence` to `buffer`.
  static func encode(sequence: UInt64, rows: [StoreRow], into buffer: inout [UInt8]) {
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: 8))
    append(sequence, to: &buffer)
    append(UInt32(rows.count), to: &buffer)
    for row in rows {
      append(text: row.scene, to: &buffer)
      append(text: row.epoch, to: &buffer)
      append(row.version, to: &buffer)
      append(text: row.client, to: &buffer)
      append(optionalText: row.mutationId, to: &buffer)
      append(row.opsDigest, to: &buffer)
      append(bytes: row.encodedOps, to: &buffer)
      append(optionalBytes: row.outcome, to: &buffer)
      append(optionalBytes: row.snapshot, to: &buffer)
      append(row.forgetMutationIdsThrough, to: &buffer)
    }
    let payloadLength = buffer.count - start - headerSize
    let checksum = buffer.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[(start + 8)...])) }
    buffer.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: UInt32(payloadLength).littleEndian, toByteOffset: start, as: UInt32.self)
      raw.storeBytes(of: checksum.littleEndian, toByteOffset: start + 4, as: UInt32.self)
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

  private static func append(_ value: UInt64, to buffer: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
  }

  private static func append(_ value: UInt32, to buffer: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
  }

  private static func append(text: String, to buffer: inout [UInt8]) {
    var text = text
    text.withUTF8 { bytes in
      append(UInt32(bytes.count), to: &buffer)
      buffer.append(contentsOf: bytes)
    }
  }

  private static func append(bytes: [UInt8], to buffer: inout [UInt8]) {
    append(UInt32(bytes.count), to: &buffer)
    buffer.append(contentsOf: bytes)
  }

  private static func append(optionalText text: String?, to buffer: inout [UInt8]) {
    buffer.append(text == nil ? 0 : 1)
    if let text { append(text: text, to: &buffer) }
  }

  private static func append(optionalBytes bytes: [UInt8]?, to buffer: inout [UInt8]) {
    buffer.append(bytes == nil ? 0 : 1)
    if let bytes { append(bytes: bytes, to: &buffer) }
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

    mutating func text() -> String? { blob().map { String(decoding: $0, as: UTF8.self) } }

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
