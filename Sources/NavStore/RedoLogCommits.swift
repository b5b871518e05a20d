import Dispatch
import NavEngine
import NavSystem
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// How the redo log is sized and paced (STORAGE.md §2); tests make them small.
struct RedoLogLimits: Sendable {
  /// A file of the log past this many bytes is closed and a new one begun; the old one goes
  /// once the database holds everything in it.
  var fileBytes = 4 << 20
  /// Records written but not yet in the database, in bytes, past which a commit waits for the
  /// applier (it suspends its scene; the event loop goes on): what a lagging database can cost
  /// in memory and in log.
  var backlogBytes = 16 << 20
  /// One scene's part of that backlog, in bytes, past which that scene's commits wait: a scene
  /// writing faster than the database takes its records waits for its own records, while
  /// every other scene's commits go on (the applier is one FIFO: a single `backlogBytes` let
  /// one writer of large groups keep it full, and every scene's small group then waited
  /// behind them). Past `backlogBytes` in all, every commit waits, as before.
  var sceneBacklogBytes = 4 << 20
  /// How long the applier lets records gather after the first one before it writes them to
  /// the database.
  var batchNanoseconds = 5_000_000
  /// The most record bytes the applier writes in one transaction: what it holds decoded at a
  /// time while it catches up on a backlog.
  var transactionBytes = 256 << 10
  /// Pending records are kept in chunks of at most this many bytes (or one record, if larger):
  /// growing one array to `backlogBytes` would copy it at each doubling on the event loop, and
  /// the applier frees each chunk once it has decoded it, so a backlog being applied and the
  /// records written meanwhile never hold much more than `backlogBytes` together.
  ///
  /// In navd chunks come from the heap (its mmap threshold is 4 MiB, `ProcessHeap`), not
  /// mmapped and unmapped as each is freed; smaller chunks cost more heap slack for no
  /// measured latency gain (BENCHMARKS.md, "The redo log's chunks").
  var chunkBytes = 256 << 10
  /// How often what was written to the log is fsynced (`--sync-interval`): a crash of the
  /// machine takes at most about this much of the acknowledged commits (STORAGE.md §2).
  var syncNanoseconds = 1_000_000_000
  /// Told the file and its size after each fsync of the log (tests simulate a power loss with it).
  var onSync: (@Sendable (_ path: String, _ bytes: Int) -> Void)?
  /// Lowers the applier thread's priority, on that thread; the errno when it fails (tests fail it).
  var lowerPriority: @Sendable () -> Int32? = ApplierPriority.lowerCurrentThread
}

/// `--durability normal`: each group is one record appended to navd's redo log with one
/// `write`, on the committing scene's thread (in navd, the event loop); a thread of the
/// store's own writes the records to the database in batches.
///
/// A group is acknowledged once its record is in the log: written to the kernel, it survives
/// a crash of navd (not of the machine, as SQLite's WAL under `synchronous=NORMAL` before it;
/// no fsync). That is one system call per group where SQLite's commit made ten (six `fcntl`
/// on the WAL index, ~3.6 `pwrite` of 4 KiB WAL frames) and ~25,000 instructions: on this
/// project's VMs, ~50 µs of a ~100 µs round trip (BENCHMARKS.md). The applier, `navd-redo`,
/// wakes at the first record after a rest, lets records gather for `batchNanoseconds`, and
/// writes all of them, in transactions of at most `transactionBytes` of records, each of
/// which also records how far the log is applied (`redo_applied`); a start replays the
/// records after that (`RedoReplay`). It retries a failed transaction (a full disk) until it
/// succeeds, with the records still in the log and in memory; a commit waits while more
/// than `backlogBytes` are unapplied. A file of the log past `fileBytes` is retired for a new
/// one and removed once the database holds all of it durably (the database's files are
/// fsynced first). While the database refuses records for
/// any reason but a full disk (which heals by itself), commits fail with its error: the
/// records already in the log are kept and retried, and a start replays them.
final class RedoLogCommits: Sendable {
  private struct State {
    /// The file records are appended to; -1 once closed.
    var fd: Int32
    var path: String
    var fileBytes = 0
    /// The sequence the next record gets.
    var nextSequence: UInt64
    /// The records written and not yet taken by the applier, as the bytes written to the log,
    /// back to back in chunks of at most `chunkBytes`; the applier decodes them.
    ///
    /// Bytes, not the groups' rows: the rows' strings and arrays took ~1.7 times the bytes
    /// `backlogBytes` counted, each an allocation of its own from the event loop's malloc
    /// arena, freed later by the applier. When the applier lagged (navd on one CPU with its
    /// clients: `bench/compare.sh --placement together`), a backlog of rows took RSS to a
    /// 42 MiB peak, and the loop's longer-lived allocations made between them pinned ~6 MiB
    /// of that arena after it drained (settled RSS +10 … +13 % after 1,000,000 mutations
    /// against the first tenth, malloc_info: 26 MiB free in 3,239 chunks). As bytes, a
    /// backlog takes the memory it counts, in a few large blocks that free whole. The cost
    /// (`bench/profile.sh`, per round trip): ~600 instructions on the event loop, which now
    /// frees the rows it encoded (49,581 → 50,187), and ~3,000 on the applier, which decodes
    /// them (18,061 → 21,103).
    var pending: [[UInt8]] = []
    /// Bytes written and not yet in the database (pending or being applied).
    var backlog = 0
    /// `backlog` by scene (a group, and so a record, is one scene's); a scene leaves it at 0.
    var sceneBacklog: [String: Int] = [:]
    /// The sequence the database holds the log through.
    var applied: UInt64
    /// Files retired for a newer one, with the last sequence each holds.
    var retired: [(path: String, last: UInt64)] = []
    /// Whether the applier sleeps until a commit or `close` signals it.
    var applierIdle = false
    var closed = false
    /// Commits waiting for the backlog, or their scene's part of it, to fall below its limit.
    var waiters: [(scene: String, waiter: CheckedContinuation<Void, Never>)] = []
    /// Why the log cannot take records any more (a partial record could not be cut off).
    var broken: StoreError?
    /// The applier's last failure while it retries; nil once a transaction succeeds.
    var applyFailure: StoreError?
    var transactions = 0
    /// The sequence the log is fsynced through.
    var synced: UInt64
    /// Whether `close` left every record in a database made durable, and no log behind.
    var finishedDurably = false
    /// A write of the log found the disk full: the applier retires the current file and cuts
    /// the WAL back at once, whatever their sizes.
    var pressed = false
  }

  private let state: Mutex<State>
  private let files: RedoLogFiles
  private let databasePath: String
  private let limits: RedoLogLimits
  private let disk: DiskSpace?
  private let wake = DispatchSemaphore(value: 0)
  private let thread: Mutex<OwnThread?> = Mutex(nil)
  /// Signalled by `close`, so the syncing thread stops at once.
  private let stopSyncing = DispatchSemaphore(value: 0)
  private let syncThread: Mutex<OwnThread?> = Mutex(nil)
  /// The errno of the applier's failed `setpriority`, if it failed.
  private let priorityFailure: Mutex<Int32?> = Mutex(nil)

  /// Why the applier runs without its lower priority, for navd's log; nil when it has it.
  var priorityProblem: String? { priorityFailure.withLock { $0 }.map { ApplierPriority.problem(errno: $0) } }

  /// Starts a new file of the log at `nextSequence` (the log's earlier files are gone: the
  /// start's replay applied and removed them) and hands `writer` to the applier thread.
  init(
    writer: StoreWriter, files: RedoLogFiles, databasePath: String, nextSequence: UInt64, limits: RedoLogLimits,
    disk: DiskSpace? = nil
  ) throws(StoreError) {
    self.files = files
    self.databasePath = databasePath
    self.limits = limits
    self.disk = disk
    let path = files.path(startingAt: nextSequence)
    let fd = try Self.create(path)
    state = Mutex(
      State(fd: fd, path: path, nextSequence: nextSequence, applied: nextSequence - 1, synced: nextSequence - 1))
    let prioritySet = DispatchSemaphore(value: 0)
    thread.withLock { [self] thread in
      thread = OwnThread(name: "navd-redo") { [self] in
        // Its work can wait and the event loop's cannot (ApplierPriority).
        let failure = limits.lowerPriority()
        priorityFailure.withLock { $0 = failure }
        prioritySet.signal()
        applyUntilClosed(writer)
      }
    }
    // So that `priorityProblem` is known when the store is opened (a few µs).
    prioritySet.wait()
    syncThread.withLock { [self] thread in
      thread = OwnThread(name: "navd-sync") { [self] in syncUntilClosed() }
    }
  }

  // MARK: - The syncing thread

  /// Every `syncNanoseconds`, fsyncs what was written to the current file since the last
  /// time (a file retired meanwhile was fsynced when it was: `rotateIfLong`). Its own thread,
  /// at the loop's priority: the applier's nice 10 may starve on a busy machine, and the bound
  /// is the point. The event loop never waits for it: it writes through its own descriptor.
  private func syncUntilClosed() {
    while stopSyncing.wait(timeout: .now() + .nanoseconds(limits.syncNanoseconds)) == .timedOut {
      let due = state.withLock { state -> (fd: Int32, path: String, bytes: Int, through: UInt64)? in
        guard !state.closed, state.fd >= 0, state.synced + 1 < state.nextSequence else { return nil }
        let copy = dup(state.fd)
        guard copy >= 0 else { return nil }
        return (copy, state.path, state.fileBytes, state.nextSequence - 1)
      }
      guard let due else { continue }
      let synced = fdatasync(due.fd) == 0
      Glibc.close(due.fd)
      guard synced else { continue }  // tried again at the next tick
      state.withLock { $0.synced = max($0.synced, due.through) }
      limits.onSync?(due.path, due.bytes)
    }
  }

  // MARK: - The committing side

  /// Appends the group's record; returns once it is in the log, or throws and the log holds
  /// nothing of it.
  nonisolated(nonsending) func commit(_ records: [CommitRecord]) async throws(StoreError) {
    let rows = records.map(StoreRow.init)
    let scene = rows.first?.scene ?? ""
    while try !append(rows) {
      await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { state in
          guard mustWait(scene, state), !state.closed else { return true }
          state.waiters.append((scene, waiter))
          return false
        }
        if resumeNow { waiter.resume() }
      }
    }
  }

  /// `commit` without waiting: true once the record is in the log; false, with nothing
  /// written, when the backlog is full and `commit` must wait for the applier.
  func commitAtOnce(_ records: [CommitRecord]) throws(StoreError) -> Bool {
    try append(records.map(StoreRow.init))
  }

  /// Appends the rows' record when the backlog has room (false when it has not).
  ///
  /// The record is encoded and checksummed before the lock is taken for the write: a large
  /// group's encoding would otherwise hold every other writer for as long, the event loop
  /// included when the large group is a waiting commit's (written from another thread). It is
  /// numbered with the sequence the log expects next, and renumbered under the lock when
  /// another record took that sequence meanwhile.
  private func append(_ rows: [StoreRow]) throws(StoreError) -> Bool {
    let scene = rows.first?.scene ?? ""
    let admitted = state.withLock { state -> Result<UInt64, AppendRefusal> in
      admission(scene, state).map { state.nextSequence }
    }
    var record: [UInt8]
    switch admitted {
    case .success(let sequence): record = RedoRecord.encoded(sequence: sequence, rows: rows)
    case .failure(let refusal): return try refused(refusal)
    }
    switch state.withLock({ state in append(&record, of: scene, to: &state) }) {
    case .written(let wakeApplier):
      if wakeApplier { wake.signal() }
      return true
    case .refused(let refusal):
      return try refused(refusal)
    }
  }

  /// `append`'s answer to a record the log does not take: false to wait (the backlog is at
  /// its limit), or the error.
  private func refused(_ refusal: AppendRefusal) throws(StoreError) -> Bool {
    switch refusal {
    case .failed(let error):
      // The applier can free the log's own space: retire the file it has applied.
      if error.kind == .full { wake.signal() }
      throw error
    case .full: return false
    }
  }

  /// Whether a commit to `scene` must wait for the applier: the backlog, or the scene's part
  /// of it, is at its limit.
  private func mustWait(_ scene: String, _ state: State) -> Bool {
    state.backlog >= limits.backlogBytes || state.sceneBacklog[scene, default: 0] >= limits.sceneBacklogBytes
  }

  private enum AppendOutcome {
    case written(wakeApplier: Bool)
    /// Not written: the log did not take it, or the write failed.
    case refused(AppendRefusal)
  }

  /// Why the log takes no record (now).
  private enum AppendRefusal: Error {
    case failed(StoreError)
    /// The backlog, or the scene's part of it, is at its limit: wait for the applier.
    case full
  }

  /// Whether a record of `scene` may be written now, and if not, why.
  private func admission(_ scene: String, _ state: State) -> Result<Void, AppendRefusal> {
    if let broken = state.broken { return .failure(.failed(broken)) }
    guard !state.closed else { return .failure(.failed(StoreError(.io, "the store is closed (navd is stopping)"))) }
    if let failure = state.applyFailure, failure.kind != .full {
      // Not a condition that heals by itself: say so to the writer rather than pile records up.
      return .failure(
        .failed(StoreError(failure.kind, "the database refuses the redo log's records: \(failure.message)")))
    }
    guard !mustWait(scene, state) else {
      // The applier is behind because the disk is full: waiting would hang the writer until
      // space returns. It gets the error now; its next try may find room.
      if let failure = state.applyFailure {
        return .failure(
          .failed(
            StoreError(
              failure.kind, "the redo log's backlog is full and its applier cannot write: \(failure.message)")))
      }
      return .failure(.full)
    }
    return .success(())
  }

  /// Writes `record` (of `scene`, encoded by `append`) when the log still takes it.
  private func append(_ record: inout [UInt8], of scene: String, to state: inout State) -> AppendOutcome {
    if case .failure(let refusal) = admission(scene, state) { return .refused(refusal) }
    if RedoRecord.sequence(of: record) != state.nextSequence { RedoRecord.renumber(&record, to: state.nextSequence) }
    let written = record.withUnsafeBytes { Self.writeAll(state.fd, $0) }
    let length = record.count
    guard written == length else {
      let error = StoreError.systemCall("write", state.path)
      if error.kind == .full { state.pressed = true }
      // Nothing of a failed record may stay: the log would end at its torn bytes.
      if written > 0, ftruncate(state.fd, off_t(state.fileBytes)) != 0 {
        state.broken = StoreError(
          .io,
          "\(state.path): cannot cut off a partly written record (\(String(cString: strerror(errno)))); "
            + "restart navd")
      }
      return .refused(.failed(error))
    }
    state.fileBytes += length
    state.backlog += length
    state.sceneBacklog[scene, default: 0] += length
    if let last = state.pending.indices.last, state.pending[last].count + length <= limits.chunkBytes {
      state.pending[last].append(contentsOf: record)
    } else {
      state.pending.append(record)
    }
    state.nextSequence += 1
    defer { state.applierIdle = false }
    return .written(wakeApplier: state.applierIdle)
  }

  /// Writes all of `bytes`; returns how many were written (fewer on an error, `errno` set).
  private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    var done = 0
    while done < bytes.count {
      let count = write(fd, bytes.baseAddress! + done, bytes.count - done)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return done }
      done += count
    }
    return done
  }

  private static func create(_ path: String) throws(StoreError) -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw StoreError.systemCall("create", path) }
    return fd
  }

  // MARK: - The applier

  /// The applier thread: takes what was written, writes it to the database in transactions
  /// of at most `transactionBytes` of records, retires files; after `close`, applies what is
  /// left, removes the log and returns.
  private func applyUntilClosed(_ writer: StoreWriter) {
    var failures = 0
    while true {
      let idle = state.withLock { state in
        state.applierIdle = state.pending.isEmpty && !state.closed
        return state.applierIdle
      }
      if idle {
        wake.wait()
        // Let a burst's records gather into one transaction (not when closing: finish now).
        if !state.withLock({ $0.closed }) { Self.nap(nanoseconds: limits.batchNanoseconds) }
      }
      var (chunks, closed) = state.withLock { state in
        var chunks: [[UInt8]] = []
        swap(&chunks, &state.pending)
        return (chunks, state.closed)
      }
      if chunks.isEmpty {
        if closed { break }
        relieveIfPressed(writer)
        continue
      }
      // Each chunk is freed as soon as it is decoded (the list is consumed from its end, so
      // reversed first): the backlog shrinks with each transaction, and commits refill it.
      chunks.reverse()
      var transaction = PendingTransaction()
      while let chunk = chunks.popLast() {
        var offset = 0
        while offset < chunk.count {
          let record = chunk.withUnsafeBytes { RedoRecord.decode(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
          guard case .record(let sequence, let rows, let length) = record else {
            // The bytes are those `append` encoded and wrote: only a bug in navd gets here.
            preconditionFailure("redo log: a pending record does not decode: \(record)")
          }
          transaction.add(rows, sequence: sequence, bytes: length)
          offset += length
          if transaction.bytes >= limits.transactionBytes {
            guard apply(&transaction, writer, failures: &failures) else { return }
          }
        }
      }
      if !transaction.rows.isEmpty {
        guard apply(&transaction, writer, failures: &failures) else { return }
      }
      let retire = state.withLock { state in state.retired.filter { $0.last <= state.applied }.map(\.path) }
      _ = retireApplied(retire)
      rotateIfLong()
      relieveIfPressed(writer)
    }
    finish(applied: true)
  }

  /// On a disk short of space (a write of the log failed, or less than the budget is free):
  /// retires the current file once it is applied and cuts the WAL back now, not at their sizes.
  private func relieveIfPressed(_ writer: StoreWriter) {
    guard let disk else { return }
    let pressed = state.withLock { $0.pressed } || disk.budget.underPressure(disk.directory)
    guard pressed else {
      disk.reserve.restoreIfRoom()
      return
    }
    rotateIfLong(force: true)
    let retire = state.withLock { state in state.retired.filter { $0.last <= state.applied }.map(\.path) }
    let retired = retireApplied(retire)
    let truncated = writer.checkpointAndTruncate()
    if retired && truncated { state.withLock { $0.pressed = false } }
    disk.reserve.restoreIfRoom()
  }

  /// Decoded records the applier writes in one transaction.
  private struct PendingTransaction {
    var rows: [StoreRow] = []
    /// Their records' bytes in the log.
    var bytes = 0
    /// `bytes` by scene.
    var sceneBytes: [String: Int] = [:]
    /// The sequence of the last record.
    var through: UInt64 = 0

    mutating func add(_ rows: [StoreRow], sequence: UInt64, bytes: Int) {
      sceneBytes[rows.first?.scene ?? "", default: 0] += bytes
      self.rows.append(contentsOf: rows)
      self.bytes += bytes
      through = sequence
    }
  }

  /// Writes `transaction` to the database, retrying a failure until it succeeds, and empties
  /// it. False when the store closed while the database kept refusing it: the applier has
  /// finished (the records stay in the log for the next start) and must return.
  private func apply(_ transaction: inout PendingTransaction, _ writer: StoreWriter, failures: inout Int) -> Bool {
    while true {
      do throws(StoreError) {
        try writer.commit(transaction.rows, redoSequence: transaction.through)
        failures = 0
        break
      } catch {
        failures += 1
        // A full disk: the reserve and the WAL's space let this transaction through at once.
        if error.kind == .full, failures == 1, let disk, disk.relieve(writer) { continue }
        // Read afresh: `close` may come while this transaction is retried.
        let (closing, waiters) = state.withLock { state in
          state.applyFailure = error
          // Commits waiting for the backlog fail now, as new ones do (`append`), rather than
          // wait for a database that refuses their predecessors (a full disk too: it may
          // stay full until someone acts, and the writer is told).
          var waiters: [(scene: String, waiter: CheckedContinuation<Void, Never>)] = []
          swap(&waiters, &state.waiters)
          return (state.closed, waiters)
        }
        for (_, waiter) in waiters { waiter.resume() }
        // A full disk heals once space returns; at close, the records stay in the log for the next start.
        if closing && failures >= 3 {
          finish(applied: false)
          return false
        }
        Self.nap(nanoseconds: min(1_000_000_000, 10_000_000 << min(failures, 7)))
      }
    }
    let (through, bytes, sceneBytes) = (transaction.through, transaction.bytes, transaction.sceneBytes)
    transaction = PendingTransaction()
    let waiters = state.withLock { state in
      state.applied = through
      state.backlog -= bytes
      for (scene, bytes) in sceneBytes {
        let left = state.sceneBacklog[scene, default: 0] - bytes
        state.sceneBacklog[scene] = left > 0 ? left : nil
      }
      state.applyFailure = nil
      state.transactions += 1
      var ready: [CheckedContinuation<Void, Never>] = []
      var waiting: [(scene: String, waiter: CheckedContinuation<Void, Never>)] = []
      swap(&waiting, &state.waiters)
      for waiter in waiting {
        if mustWait(waiter.scene, state) { state.waiters.append(waiter) } else { ready.append(waiter.waiter) }
      }
      return ready
    }
    for waiter in waiters { waiter.resume() }
    return true
  }

  /// Removes retired files the database now holds all of, once the database's files are
  /// durable; false when that failed (the files stay).
  private func retireApplied(_ paths: [String]) -> Bool {
    guard !paths.isEmpty else { return true }
    do throws(StoreError) {
      try RedoLogFiles.sync(databasePath + "-wal")
      try RedoLogFiles.sync(databasePath)
      for path in paths { try RedoLogFiles.remove(path) }
      state.withLock { state in state.retired.removeAll { paths.contains($0.path) } }
      return true
    } catch {
      // Kept for the next try (the next batch): an extra file costs only disk. Not an
      // `applyFailure`: that would refuse every commit, and with no new batch nothing would clear it.
      return false
    }
  }

  /// Begins a new file when the current one is past `fileBytes` (`force`: holds anything); the old one is fsynced (the
  /// syncing thread covers only the current file) and closed.
  private func rotateIfLong(force: Bool = false) {
    let old = state.withLock { state -> (fd: Int32, path: String, bytes: Int, through: UInt64)? in
      guard state.fileBytes >= (force ? 1 : limits.fileBytes), state.broken == nil, !state.closed else { return nil }
      let path = files.path(startingAt: state.nextSequence)
      guard let fd = try? Self.create(path) else { return nil }  // the current file goes on; the next batch tries again
      let old = (state.fd, state.path, state.fileBytes, state.nextSequence - 1)
      state.retired.append((state.path, state.nextSequence - 1))
      (state.fd, state.path, state.fileBytes) = (fd, path, 0)
      return old
    }
    guard let old else { return }
    // Outside the lock: the event loop appends to the new file meanwhile.
    let synced = fdatasync(old.fd) == 0
    Glibc.close(old.fd)
    guard synced else { return }
    state.withLock { $0.synced = max($0.synced, old.through) }
    limits.onSync?(old.path, old.bytes)
  }

  /// After `close`: with everything applied, makes the database durable and removes the log.
  private func finish(applied: Bool) {
    let paths = state.withLock { state in
      if state.fd >= 0 { Glibc.close(state.fd) }
      state.fd = -1
      return state.retired.map(\.path) + [state.path]
    }
    guard applied else { return }
    let removed = retireApplied(paths)
    state.withLock { $0.finishedDurably = removed }
  }

  private static func nap(nanoseconds: Int) {
    var time = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    var left = timespec()
    while nanosleep(&time, &left) != 0, errno == EINTR { time = left }
  }

  // MARK: - Closing and statistics

  /// Transactions the applier committed so far.
  var transactions: Int { state.withLock { $0.transactions } }

  /// The sizes of the chunks holding the records not yet taken by the applier.
  var pendingChunkSizes: [Int] { state.withLock { $0.pending.map(\.count) } }

  /// Waits (blocking, for at most `seconds`) until the database holds every record written;
  /// throws the applier's failure if it does not by then.
  func waitUntilApplied(seconds: Int = 30) throws(StoreError) {
    for _ in 0..<(seconds * 1000) {
      if state.withLock({ $0.applied + 1 == $0.nextSequence }) { return }
      Self.nap(nanoseconds: 1_000_000)
    }
    let failure = state.withLock { $0.applyFailure }
    throw failure ?? StoreError(.io, "the redo log's applier did not catch up within \(seconds) s")
  }

  /// Refuses further commits, applies what the log holds, removes it and stops the applier and
  /// the syncing thread. Returns whether everything acknowledged is now durable in the database.
  @discardableResult
  func close() -> Bool {
    let waiters = state.withLock { state in
      state.closed = true
      var waiters: [(scene: String, waiter: CheckedContinuation<Void, Never>)] = []
      swap(&waiters, &state.waiters)
      return waiters
    }
    for (_, waiter) in waiters { waiter.resume() }
    wake.signal()
    let thread = self.thread.withLock { thread in
      defer { thread = nil }
      return thread
    }
    thread?.join()
    stopSyncing.signal()
    let syncer = syncThread.withLock { thread in
      defer { thread = nil }
      return thread
    }
    syncer?.join()
    return state.withLock { $0.finishedDurably }
  }
}
