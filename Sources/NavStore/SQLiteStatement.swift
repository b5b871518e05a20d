import CSQLite
import NavEngine

/// A prepared statement: bind, step, read columns, and it resets itself for the next use.
final class SQLiteStatement {
  private let statement: OpaquePointer
  // Unowned: statements live in their database's stores and die with them.
  private unowned let database: SQLiteDatabase
  private let sql: String

  /// The UTF-8 of this use's text parameters, which SQLite reads in place (`SQLITE_STATIC`)
  /// until the next use rebinds them. It only grows, so binding a commit's text allocates
  /// nothing (SQLite's own copy, `SQLITE_TRANSIENT`, was a malloc and a free per parameter).
  private var texts = UnsafeMutableRawBufferPointer(start: nil, count: 0)

  init(_ statement: OpaquePointer, database: SQLiteDatabase, sql: String) {
    self.statement = statement
    self.database = database
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(statement)
    texts.deallocate()
  }

  /// Binds parameters `?1`, `?2`, … in order (after resetting the previous use).
  ///
  /// Every use binds every parameter (asserted): a parameter left from an earlier use could
  /// point into text that has since been overwritten.
  func bind(_ values: SQLiteValue...) throws(StoreError) { try bind(values) }

  private func bind(_ values: [SQLiteValue]) throws(StoreError) {
    assert(Int(sqlite3_bind_parameter_count(statement)) == values.count, "\(sql): every parameter is bound each time")
    sqlite3_reset(statement)
    reserveTexts(values.reduce(0) { $0 + $1.utf8Count })
    var used = 0
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32 =
        switch value {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let number): sqlite3_bind_int64(statement, index, number)
        case .text(var text): text.withUTF8 { bindText($0, at: index, used: &used) }
        case .utf8(let bytes): bytes.withUnsafeBufferPointer { bindText($0, at: index, used: &used) }
        }
      guard code == SQLITE_OK else { throw database.failure(code, doing: sql) }
    }
  }

  /// Makes `texts` hold at least `count` bytes. Safe while the previous use's parameters still
  /// point into it: SQLite reads a parameter only when stepping, and this use rebinds every one first.
  private func reserveTexts(_ count: Int) {
    guard count > texts.count else { return }
    texts.deallocate()
    texts = .allocate(byteCount: max(count, 2 * texts.count, 256), alignment: 1)
  }

  /// Copies `bytes` into `texts` after the `used` bytes and binds them there without a copy of SQLite's.
  private func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32, used: inout Int) -> Int32 {
    // An empty buffer may have no address, and a NULL pointer would bind NULL, not "".
    guard let source = bytes.baseAddress, !bytes.isEmpty else {
      return sqlite3_bind_text(statement, index, "", 0, csqlite_transient())
    }
    let target = texts.baseAddress! + used
    target.copyMemory(from: source, byteCount: bytes.count)
    used += bytes.count
    return sqlite3_bind_text(
      statement, index, target.assumingMemoryBound(to: CChar.self), Int32(bytes.count), csqlite_static())
  }

  /// Steps once: true when a row is ready, false when done (then the statement is reset).
  func step() throws(StoreError) -> Bool {
    let code = sqlite3_step(statement)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE:
      sqlite3_reset(statement)
      return false
    default:
      sqlite3_reset(statement)
      throw database.failure(code, doing: sql)
    }
  }

  /// Ends the current use early (before the last row), releasing what it holds.
  func reset() { sqlite3_reset(statement) }

  /// Runs a statement that returns no rows.
  func run(_ values: SQLiteValue...) throws(StoreError) {
    try bind(values)
    while try step() {}
  }

  /// Column `index` of the current row as an integer (0 for NULL).
  func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

  /// Column `index` of the current row as text (nil for NULL).
  /// Column `index` as text, read with its stored length: text bound with a NUL in it
  /// (a JSON `"\u0000"` in a mutation id) comes back whole, as it was bound.
  func text(_ index: Int32) -> String? {
    guard let bytes = sqlite3_column_text(statement, index) else { return nil }
    let count = Int(sqlite3_column_bytes(statement, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
  case null
  case integer(Int64)
  case text(String)
  /// Text given as its UTF-8 bytes (no conversion to a `String` and back).
  case utf8([UInt8])

  /// The bytes of text as UTF-8 (0 for the other kinds).
  var utf8Count: Int {
    switch self {
    case .null, .integer: 0
    case .text(let text): text.utf8.count
    case .utf8(let bytes): bytes.count
    }
  }

  /// Text, or NULL for nil.
  static func optional(_ text: String?) -> SQLiteValue { text.map { .text($0) } ?? .null }
}
