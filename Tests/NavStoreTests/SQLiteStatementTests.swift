import NavTestSupport
import Testing

@testable import NavStore

/// `SQLiteStatement` binds text in place (`SQLITE_STATIC`, from a buffer of the statement's
/// own that is reused and grown between uses) instead of letting SQLite copy it.
@Suite("SQLiteStatement: bound text is stored exactly")
struct SQLiteStatementTests {
  @Test("seeded random texts (empty, multi-byte, with NUL, growing and shrinking) are stored and read back as bound")
  func randomTextsRoundTrip() throws {
    let seed: UInt64 = 20_261_130
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let database = try SQLiteDatabase(path: directory.database)
    try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b TEXT, n INTEGER, c TEXT)")
    let write = try database.prepare("INSERT OR REPLACE INTO t (id, a, b, n, c) VALUES (1, ?1, ?2, ?3, ?4)")
    let read = try database.prepare("SELECT a, b, n, c FROM t WHERE id = ?1")
    // "\u{0}": JSON lets a mutation id hold a NUL; it must come back whole, not cut there.
    let pieces = ["", "a", "xyz", "é", "€", "😀", "\"", "\u{0}", String(repeating: "w", count: 300)]
    for round in 0..<400 {
      let texts = (0..<3).map { _ in (0..<random.below(6)).map { _ in pieces[random.below(pieces.count)] }.joined() }
      let number = Int64(bitPattern: random.next())
      // The last parameter alternates between a String and the same text as UTF-8 bytes.
      let last: SQLiteValue = round % 2 == 0 ? .text(texts[2]) : .utf8(Array(texts[2].utf8))
      try write.run(.text(texts[0]), .optional(round % 5 == 0 ? nil : texts[1]), .integer(number), last)
      try read.bind(.integer(1))
      #expect(try read.step(), "seed \(seed) round \(round): the row")
      #expect(read.text(0) == texts[0], "seed \(seed) round \(round)")
      #expect(read.text(1) == (round % 5 == 0 ? nil : texts[1]), "seed \(seed) round \(round)")
      #expect(read.int64(2) == number, "seed \(seed) round \(round)")
      #expect(read.text(3) == texts[2], "seed \(seed) round \(round)")
      read.reset()
    }
  }
}
