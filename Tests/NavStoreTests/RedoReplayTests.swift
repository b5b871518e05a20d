import Testing

@testable import NavStore

@Suite(
  "RedoReplay.pending: what a start applies from the log, and where the log ends (STORAGE.md §4, \"Replaying the redo log\")"
)
struct RedoReplayTests {
  /// One case: the log's files (records by sequence, optionally cut or damaged) and what a read past `applied` finds.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var applied: UInt64
    var files: [[UInt64]]
    /// Bytes cut off the end of the last file.
    var cut = 0
    /// A flipped byte: (file, record index in that file).
    var flipped: (file: Int, record: Int)?
    var rows: [UInt64]
    var last: UInt64
    /// Pieces the `dropped` message must hold (nil: nothing dropped).
    var dropped: [String]?
    var endedAtGap = false

    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "every record past the position is applied", applied: 0, files: [[1, 2, 3]], rows: [1, 2, 3], last: 3),
    Case(
      name: "records at or below the position are skipped", applied: 2, files: [[1, 2, 3, 4]], rows: [3, 4], last: 4),
    Case(name: "a log the database already holds adds nothing", applied: 5, files: [[3, 4, 5]], rows: [], last: 5),
    Case(name: "no files, or empty ones: nothing", applied: 4, files: [[], []], rows: [], last: 4),
    Case(
      name: "a torn last record ends the log, naming the file, byte and bytes dropped", applied: 0,
      files: [[1, 2, 3]], cut: 3, rows: [1, 2], last: 2,
      dropped: ["navd.redo.0000000000000001 at byte 146 (a record of 73 bytes with only 70 left)", "last 70 bytes"]),
    Case(
      name: "a header cut short ends the log", applied: 0, files: [[1, 2]], cut: 66, rows: [1], last: 1,
      dropped: ["at byte 73 (7 bytes, shorter than a record's 16-byte header)", "last 7 bytes"]),
    Case(
      name: "a first record past the position leaves a gap: nothing is applied", applied: 0, files: [[2, 3]],
      rows: [], last: 0, dropped: ["at byte 0 (record 2 where 1 was due)", "last 146 bytes"], endedAtGap: true),
    Case(
      name: "a record that does not follow its predecessor ends the log", applied: 0, files: [[1, 2, 4, 5]],
      rows: [1, 2], last: 2, dropped: ["at byte 146 (record 4 follows record 2)"]),
    Case(
      name: "the log continues across files", applied: 1, files: [[1, 2], [3], [], [4, 5]], rows: [2, 3, 4, 5],
      last: 5),
    Case(
      name: "the position may fall in a later file", applied: 3, files: [[1, 2], [3, 4]], rows: [4], last: 4),
    Case(
      name: "a file not continuing the one before ends the log", applied: 0, files: [[1, 2], [4], [5]],
      rows: [1, 2], last: 2,
      dropped: ["navd.redo.0000000000000004 at byte 0 (record 4 follows record 2)", "and 1 later file(s)"]),
    Case(
      name: "damage in an earlier file drops the later files and says how many", applied: 0,
      files: [[1, 2, 3], [4, 5], [6]], flipped: (0, 1), rows: [1], last: 1,
      dropped: [
        "navd.redo.0000000000000001 at byte 73 (a record whose checksum does not match): dropped its last 146 bytes and 2 later file(s)"
      ]),
  ]

  @Test("pending(after:in:)", arguments: cases)
  func pending(_ test: Case) {
    var files: [(path: String, bytes: [UInt8])] = []
    for (index, sequences) in test.files.enumerated() {
      var bytes = redoBytes(sequences)
      if let flipped = test.flipped, flipped.file == index {
        bytes[flipped.record * 73 + 30] ^= 0x10
      }
      files.append(("/state/navd.redo." + String(repeating: "0", count: 15) + "\(sequences.first ?? 9)", bytes))
    }
    if test.cut > 0 { files[files.count - 1].bytes.removeLast(test.cut) }
    let found = RedoReplay.pending(after: test.applied, in: files)
    #expect(found.rows == test.rows.map { redoRow($0) })
    #expect(found.last == test.last)
    #expect(found.endedAtGap == test.endedAtGap)
    if let pieces = test.dropped {
      let message = found.dropped ?? ""
      for piece in pieces { #expect(message.contains(piece), "\(message)") }
    } else {
      #expect(found.dropped == nil)
    }
  }

  @Test("the records here are 73 bytes each (the byte offsets in the cases above count on it)")
  func recordSize() {
    #expect(redoBytes([1]).count == 73)
    #expect(redoBytes([9]).count == 73)
  }
}
