import CSQLite
import NavEngine

#if canImport(Glibc)
  import Glibc
#endif

/// One SQLite connection, used by one thread at a time (SQLite's "multi-thread" mode).
///
/// Every failure becomes a `StoreError` whose kind says what the caller can do:
/// `.full` (retry after space returns), `.corrupt` (refuse to start), `.io` (anything else).
final class SQLiteDatabase {
  let path: String
  private let handle: OpaquePointer

  /// Process-wide settings, made once before the first connection opens (SQLite takes them
  /// only before it initializes, and only while no other thread calls it: navd opens its
  /// database at start-up, before it starts any thread that uses SQLite). Without memory
  /// statistics an allocation takes no global mutex.
  private static let configured: Void = { _ = csqlite_disable_memory_statistics() }()

  /// Opens `path`, creating it unless `readOnly`.
  convenience init(path: String, readOnly: Bool = false) throws(StoreError) {
    try self.init(
      path: path, name: path, flags: readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
  }

  /// Opens the file SQLite's `name` names (a path, or a `file:` URI with `SQLITE_OPEN_URI` in
  /// `flags`); `path` is the file's path, for messages.
  init(path: String, name: String, flags: Int32) throws(StoreError) {
    Self.configured
    self.path = path
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(name, &handle, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, nil)
    guard let handle else { throw StoreError(.io, "\(path): cannot open the database (SQLite error \(code))") }
    self.handle = handle
    // A failed open still needs its handle closed: deinit does that, as it runs for a class
    // that throws once every stored property is set (closing here too freed it twice).
    guard code == SQLITE_OK else { throw failure(code, doing: "open") }
    sqlite3_extended_result_codes(handle, 1)
  }

  deinit { sqlite3_close_v2(handle) }

  /// Runs one or more statements that return no rows the caller needs.
  func execute(_ sql: String) throws(StoreError) {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw failure(code, doing: sql) }
  }

  /// Compiles `sql` once; the statement is reset after every use.
  func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard code == SQLITE_OK, let statement else { throw failure(code, doing: sql) }
    return SQLiteStatement(statement, database: self, sql: sql)
  }

  /// Every row of the first column of `sql`, as text (for pragmas).
  func texts(_ sql: String) throws(StoreError) -> [String] {
    let statement = try prepare(sql)
    var rows: [String] = []
    while try statement.step() { rows.append(statement.text(0) ?? "") }
    return rows
  }

  /// The first column of the first row of `sql`, as an integer (for pragmas).
  func integer(_ sql: String) throws(StoreError) -> Int64 {
    let statement = try prepare(sql)
    guard try statement.step() else { throw StoreError(.io, "\(path): \(sql) returned no row") }
    return statement.int64(0)
  }

  /// Copies this database, as of one moment, into `target` (SQLite's online backup).
  func copy(into target: SQLiteDatabase) throws(StoreError) {
    guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
      throw target.failure(sqlite3_errcode(target.handle), doing: "backup of \(path)")
    }
    let stepped = sqlite3_backup_step(backup, -1)
    let finished = sqlite3_backup_finish(backup)
    guard stepped == SQLITE_DONE, finished == SQLITE_OK else {
      throw failure(stepped == SQLITE_DONE ? finished : stepped, doing: "backup into memory")
    }
  }

  /// Waits for a lock held by another connection in short naps, for about 5 s at most
  /// (`csqlite_short_busy_wait`), instead of `PRAGMA busy_timeout`'s 1, 2, 5… ms sleeps.
  func useShortBusyWait() {
    csqlite_use_short_busy_wait(handle)
  }

  /// Whether a transaction is open (false once it committed or was rolled back).
  var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// A `StoreError` for result `code`, with SQLite's message and the OS error where there is one.
  func failure(_ code: Int32, doing what: String) -> StoreError {
    let message = String(cString: sqlite3_errmsg(handle))
    let osError = sqlite3_system_errno(handle)
    let cause = osError != 0 ? "\(message) (\(String(cString: strerror(osError))))" : message
    switch code & 0xff {
    case SQLITE_FULL:
      return StoreError(.full, "\(path): the disk is full (\(cause)); nothing was stored")
    case SQLITE_CORRUPT, SQLITE_NOTADB:
      return StoreError(.corrupt, "\(path) is damaged: \(cause)")
    default:
      let short = what.count > 60 ? String(what.prefix(57)) + "..." : what
      return StoreError(.io, "\(path): \(cause) (SQLite error \(code) during \(short))")
    }
  }
}
