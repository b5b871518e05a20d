import NavEngine

/// Start-up's half of the redo log: what the log holds past the database's redo position is
/// written to the database before anything is loaded, and then the log's files go.
///
/// The log is read in order and ends at the first record that is not intact or does not
/// continue the sequence. After a crash of navd that is the end of what it wrote: a record is
/// one `write`, whole or absent. Only a crash of the machine can leave a torn or missing
/// stretch (the log is not fsynced: `--durability normal` promises nothing across one, as
/// SQLite's own WAL under `synchronous=NORMAL`); what follows it is dropped, and said so,
/// rather than applied with a hole in it (STORAGE.md §2).
enum RedoReplay {
  /// What a replay found: the rows to write, the sequence they reach, and what was dropped.
  struct Found {
    /// The rows of every record after the position, in order.
    var rows: [StoreRow] = []
    /// The last such record's sequence (the position when there are none).
    var last: UInt64
    /// Why the log ended before its files did, and what that dropped; nil when it did not.
    var dropped: String?
    /// Whether it ended at a record that skips ahead of the position (records missing before it).
    var endedAtGap = false
    /// Why a start must not go on with this log (`pending`'s `strict`); nil when it may.
    var refusal: String?
    /// Per scene, the newest version (and its epoch) of the records at or below the position:
    /// what the database says it holds already (`read` checks that it does).
    var held: [String: (epoch: String, version: UInt64, sequence: UInt64)] = [:]
  }

  /// Reads `files` (the log's files in order, with their bytes) past position `applied`.
  ///
  /// `strict` (a start that knows the machine did not crash since navd last wrote the log:
  /// every `write` it made is in the files) turns what only a bug, a damaged disk or a stray
  /// file can leave into `refusal`: damage before the last file's tail, a record out of
  /// sequence, a position past the log's end. Whatever `strict`, a file whose first record is
  /// not the one its name says, and records missing between the position and the log, are
  /// refusals too (no crash leaves them); `readable` (export) ignores refusals.
  static func pending(after applied: UInt64, in files: [(path: String, bytes: [UInt8])], strict: Bool = false)
    -> Found
  {
    var found = Found(last: applied)
    var previous: UInt64?
    /// The last sequence the files hold (or, for an empty last file, the one before its name's).
    var end: UInt64 = 0
    for (index, file) in files.enumerated() {
      var offset = 0
      let named = RedoLogFiles.firstSequence(ofFile: file.path)
      if let named, named > 0 { end = max(end, named - 1) }
      while true {
        let decoded = file.bytes.withUnsafeBytes { RedoRecord.decode(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
        var stop: String?
        var outOfOrder = false
        switch decoded {
        case .end:
          break
        case .damaged(let why):
          stop = why
        case .record(let sequence, let rows, let length):
          if offset == 0, let named, named != sequence {
            found.refusal =
              "\(file.path) starts with record \(sequence), not the record \(named) its name says: it is not a file "
              + "of this redo log (copied or renamed into the state directory)"
            return found
          }
          if let previous, sequence != previous + 1 {
            stop = "record \(sequence) follows record \(previous)"
            outOfOrder = true
          } else if sequence > found.last + 1 {
            stop = "record \(sequence) where \(found.last + 1) was due"
            found.endedAtGap = true
            found.refusal =
              "the database holds the redo log through record \(applied) (redo_applied), but the log goes on at record "
              + "\(sequence) in \(file.path): records \(found.last + 1)…\(sequence - 1) are missing (redo_applied is "
              + "damaged, or files of the log were removed)"
          } else {
            previous = sequence
            end = max(end, sequence)
            offset += length
            if sequence == found.last + 1 {
              found.rows.append(contentsOf: rows)
              found.last = sequence
            } else if sequence <= applied {
              for row in rows {
                if row.isDeletion {
                  found.held[row.scene] = nil  // the database holds no such scene any more
                } else if row.version >= found.held[row.scene]?.version ?? 0 {
                  found.held[row.scene] = (row.epoch, row.version, sequence)
                }
              }
            }
            continue
          }
        }
        if let stop {
          let later = files.count - index - 1
          if strict, found.refusal == nil, later > 0 || outOfOrder {
            found.refusal =
              "the redo log is damaged in \(file.path) at byte \(offset) (\(stop)), before its end; the machine did "
              + "not crash since navd wrote it, so only a damaged disk or a file not navd's can leave that"
          }
          found.dropped =
            "the redo log ends in \(file.path) at byte \(offset) (\(stop)): dropped its last "
            + "\(file.bytes.count - offset) bytes" + (later > 0 ? " and \(later) later file(s)" : "")
            + "; navd kept what the database and the log held up to there"
          return found
        }
        break
      }
    }
    if strict, !files.isEmpty, applied > end {
      found.refusal =
        "the database says it holds the redo log through record \(applied) (redo_applied), but the log ends at "
        + "record \(end): redo_applied is damaged (a start would skip records it never applied)"
    }
    return found
  }

  /// Writes what the log in `files` holds past the database's position through `writer`, in one
  /// transaction; makes the database durable, then removes the log's files. Returns what it
  /// found (`last` is the sequence the log is now applied through).
  static func replay(into writer: StoreWriter, databasePath: String, files: RedoLogFiles, strict: Bool = false)
    throws(StoreError) -> Found
  {
    let found = try read(database: writer.database, files: files, strict: strict)
    let paths = try files.list()
    guard !paths.isEmpty else { return found }
    if !found.rows.isEmpty { try writer.commit(found.rows, redoSequence: found.last) }
    // The records leave the log only once the database holds them durably.
    try RedoLogFiles.sync(databasePath + "-wal")
    try RedoLogFiles.sync(databasePath)
    for path in paths { try RedoLogFiles.remove(path) }
    return found
  }
}

extension RedoReplay {
  /// What the log in `files` holds past `database`'s position (`pending`); throws `.corrupt`
  /// for its refusal, before anything is written.
  static func read(database: SQLiteDatabase, files: RedoLogFiles, strict: Bool) throws(StoreError) -> Found {
    let applied = UInt64(bitPattern: try database.integer("SELECT sequence FROM redo_applied"))
    let paths = try files.list()
    guard !paths.isEmpty else { return Found(last: applied) }
    var contents: [(path: String, bytes: [UInt8])] = []
    for path in paths { contents.append((path, try RedoLogFiles.contents(of: path))) }
    let found = pending(after: applied, in: contents, strict: strict)
    if let refusal = found.refusal { throw StoreError(.corrupt, refusal) }
    try checkHeld(found, in: database, applied: applied)
    return found
  }

  /// Refuses a position (`redo_applied`) past records the database does not hold: a start
  /// would skip them.
  private static func checkHeld(_ found: Found, in database: SQLiteDatabase, applied: UInt64) throws(StoreError) {
    guard !found.held.isEmpty else { return }
    let query = try database.prepare(
      "SELECT epoch, max(snapshot_version, coalesce((SELECT max(version) FROM log WHERE scene = ?1), 0)) "
        + "FROM scenes WHERE name = ?1")
    for (scene, held) in found.held.sorted(by: { $0.key < $1.key }) {
      try query.bind(.text(scene))
      let stored: (epoch: String, version: UInt64)? =
        try query.step() ? (query.text(0) ?? "", UInt64(max(0, query.int64(1)))) : nil
      query.reset()
      if let stored, stored.epoch != held.epoch { continue }  // a later history of the scene replaced it
      guard let stored, stored.version >= held.version else {
        throw StoreError(
          .corrupt,
          "the database says it holds the redo log through record \(applied) (redo_applied), but record "
            + "\(held.sequence) made scene \"\(scene)\" version \(held.version) and the database has "
            + (stored.map { "it at version \($0.version)" } ?? "no such scene")
            + ": redo_applied is damaged (a start would skip records it never applied)")
      }
    }
  }
}

extension RedoReplay {
  /// A database to read as navd holds it, and what it could not include.
  struct Readable {
    let database: SQLiteDatabase
    /// Set when the redo log does not continue the database (a crash of the machine left a
    /// hole in it): what was left out, as a start would leave it out.
    let problem: String?
    /// How the file was opened (`SQLiteDatabase.openForReading`).
    let mode: SQLiteDatabase.ReadingMode
  }

  /// The database at `path` as navd holds it, for reading without writing any file
  /// (`navctl export`, whether or not navd runs; `SQLiteDatabase.openForReading`): the file
  /// itself when the redo log holds nothing past its position, else a copy in memory with
  /// those records written into it.
  ///
  /// While navd runs, its applier may write records to the file and remove log files between
  /// the copy and the reading of the log; the log then no longer continues the copy's
  /// position, and the copy is taken again (up to 20 times). A log that still does
  /// not continue it by then has a hole a start would drop too: what comes before the hole is
  /// used, and `problem` says what was left out.
  static func readable(databaseAt path: String) throws(StoreError) -> Readable {
    let files = RedoLogFiles(databasePath: path)
    var attempts = 0
    while true {
      attempts += 1
      let (database, mode) = try SQLiteDatabase.openForReading(path)
      guard !(try files.list()).isEmpty, try Int(database.integer("PRAGMA user_version")) >= 4 else {
        return Readable(database: database, problem: nil, mode: mode)
      }
      let copy = try SQLiteDatabase(path: ":memory:")
      let applied: UInt64
      do throws(StoreError) {
        try database.copy(into: copy)
        applied = UInt64(bitPattern: try copy.integer("SELECT sequence FROM redo_applied"))
      } catch {
        // A damaged file may not copy whole: read what it holds, as export does, without the log.
        return Readable(
          database: database, problem: "the redo log could not be added to the database's copy: \(error.message)",
          mode: mode)
      }
      // Listed again after the copy: the records past its position are in the files there now.
      var contents: [(path: String, bytes: [UInt8])] = []
      for path in try files.list() {
        do throws(StoreError) {
          contents.append((path, try RedoLogFiles.contents(of: path)))
        } catch {
          continue  // removed by navd's applier meanwhile: the records it held are in the file
        }
      }
      let found = pending(after: applied, in: contents)
      if found.endedAtGap, attempts < 20 { continue }
      // A file a start would refuse (not one of the log's) ends what is read here too: say so.
      let problem =
        found.endedAtGap
        ? found.dropped : found.refusal.map { "the redo log was read only up to a file a start refuses: \($0)" }
      if found.rows.isEmpty {
        return Readable(database: problem == nil ? database : copy, problem: problem, mode: mode)
      }
      try StoreWriter(database: copy).commit(found.rows, redoSequence: found.last)
      return Readable(database: copy, problem: problem, mode: mode)
    }
  }
}
