import CSQLite
import NavEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Reading navd's database while writing no file in its directory (`navctl export`,
/// STORAGE.md §5).
///
/// A plain read-only connection (`SQLITE_OPEN_READONLY`) still writes: it creates
/// `navd.db-wal` and `navd.db-shm` when they are missing, and when no connection holds the
/// WAL index (navd crashed) it rebuilds `navd.db-shm` from the WAL. `immutable=1` writes
/// nothing but ignores the WAL, which after a crash holds committed transactions. So what is
/// in the directory decides how the database is opened:
/// - a WAL with frames and its index (navd runs, or crashed): `readonly_shm=1`, read-only.
///   SQLite opens the index read-only; with navd running it reads through navd's index, and
///   when no connection holds it (a crash) it builds a private index in memory from the WAL
///   (`SQLITE_READONLY_CANTINIT`), so the WAL's transactions are read and nothing is written;
/// - no WAL, or one without frames (its 32-byte header at most: navd stopped cleanly, or was
///   killed before it wrote a transaction there): nothing but the main file to read, so
///   `immutable=1` (no lock, no other file). SQLite 3.40's private index cannot read a WAL that
///   is only a header (it retries until `SQLITE_PROTOCOL`), and a WAL that gets frames while
///   the file is read means a navd writes there: `changedSince` says so and the caller reads
///   again;
/// - a WAL with frames and no index (deleted by hand, or not copied with it): SQLite cannot
///   read that WAL without making an index next to it, so the database and its WAL are copied
///   into a private temporary directory, read there into memory, and the copies removed.
extension SQLiteDatabase {
  /// How `openForReading` opened the database.
  enum ReadingMode: Equatable {
    /// `immutable=1`: the main file alone, with the WAL's and the file's identity when opened.
    case immutable(FileIdentity, FileIdentity)
    /// `readonly_shm=1`: the main file, its WAL, and its index opened read-only.
    case sharedIndexReadOnly
    /// A copy in memory of a private copy of the main file and its WAL.
    case privateCopy
  }

  /// A file's inode, size, and modification and change times (all zero: no file).
  struct FileIdentity: Equatable {
    var inode: UInt64 = 0
    var size: Int64 = 0
    var modified: [Int] = [0, 0]
    var changed: [Int] = [0, 0]

    init(_ path: String) {
      var info = stat()
      guard lstat(path, &info) == 0 else { return }
      inode = UInt64(info.st_ino)
      size = Int64(info.st_size)
      modified = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
      changed = [info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
    }

    var exists: Bool { inode != 0 }
  }

  /// The size of a WAL's header: a WAL no larger holds no transaction.
  static let walHeaderBytes: Int64 = 32

  /// Opens the database at `path` to read, in a way that writes no file (see the type).
  static func openForReading(_ path: String) throws(StoreError) -> (database: SQLiteDatabase, mode: ReadingMode) {
    let wal = FileIdentity(path + "-wal")
    if wal.size <= walHeaderBytes {
      let main = FileIdentity(path)
      let database = try SQLiteDatabase(path: path, name: uri(path, "immutable=1"), flags: readFlags)
      return (database, .immutable(wal, main))
    }
    if FileIdentity(path + "-shm").exists {
      let name = uri(path, "mode=ro&readonly_shm=1")
      return (try SQLiteDatabase(path: path, name: name, flags: readFlags), .sharedIndexReadOnly)
    }
    return (try privateCopy(of: path), .privateCopy)
  }

  /// Whether the database at `path`, opened as `mode`, may have changed under the reading: for
  /// `immutable=1`, its WAL or its file is not what it was when opened (a navd started or wrote
  /// meanwhile, and what was read may miss its transactions); never for the other modes.
  static func changedSince(_ mode: ReadingMode, path: String) -> Bool {
    guard case .immutable(let wal, let main) = mode else { return false }
    return FileIdentity(path + "-wal") != wal || FileIdentity(path) != main
  }

  private static let readFlags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI

  /// A `file:` URI for `path` with `query`: `%`, `?` and `#` escaped; an absolute path gets an
  /// empty authority (`file:///…`), so one starting with `//` is not read as a host.
  static func uri(_ path: String, _ query: String) -> String {
    var escaped = ""
    for character in path.unicodeScalars {
      switch character {
      case "%": escaped += "%25"
      case "?": escaped += "%3F"
      case "#": escaped += "%23"
      default: escaped.unicodeScalars.append(character)
      }
    }
    return (path.hasPrefix("/") ? "file://" : "file:") + escaped + "?" + query
  }

  private static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// The database at `path` with its WAL, copied into a private directory (mode 0700 under
  /// an absolute `$TMPDIR`, else /tmp), opened there, copied into memory, and the directory removed.
  private static func privateCopy(of path: String) throws(StoreError) -> SQLiteDatabase {
    let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    var template = Array((base + "/navctl-export-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw StoreError.systemCall("mkdtemp", base) }
    let directory = String(cString: made)
    let copy = directory + "/navd.db"
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(copy + suffix) }
      rmdir(directory)
    }
    try copyFile(path, to: copy)
    try copyFile(path + "-wal", to: copy + "-wal")
    let opened = try SQLiteDatabase(path: path, name: copy, flags: SQLITE_OPEN_READWRITE)
    let memory = try SQLiteDatabase(path: path, name: ":memory:", flags: SQLITE_OPEN_READWRITE)
    try opened.copy(into: memory)
    return memory
  }

  private static func copyFile(_ source: String, to target: String) throws(StoreError) {
    let input = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard input >= 0 else { throw StoreError.systemCall("open", source) }
    defer { close(input) }
    let output = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard output >= 0 else { throw StoreError.systemCall("create", target) }
    defer { close(output) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw StoreError.systemCall("read", source) }
      if count == 0 { return }
      var written = 0
      while written < count {
        let n = chunk.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { throw StoreError.systemCall("write", target) }
        written += n
      }
    }
  }
}
