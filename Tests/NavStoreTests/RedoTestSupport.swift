import Foundation
import Testing

@testable import NavStore

/// A small store row whose version says which record it came from.
func redoRow(_ version: UInt64, scene: String = "main") -> StoreRow {
  StoreRow(
    scene: scene, epoch: "e1", version: version, client: "c", mutationId: nil, opsDigest: version,
    encodedOps: Array("[\(version)]".utf8), outcome: nil, snapshot: nil, forgetMutationIdsThrough: 0)
}

/// The records of `sequences`, each holding `redoRow(sequence)`, back to back.
func redoBytes(_ sequences: [UInt64]) -> [UInt8] {
  var bytes: [UInt8] = []
  for sequence in sequences { bytes += RedoRecord.encoded(sequence: sequence, rows: [redoRow(sequence)]) }
  return bytes
}

/// The names of the redo log's files in `directory`, in the log's order.
func redoFileNames(in directory: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(RedoLogFiles.prefix) }.sorted()
}

/// The records the redo log's files in `directory` hold, in order: sequence and length.
func redoRecords(in directory: String) throws -> [(sequence: UInt64, length: Int)] {
  var records: [(sequence: UInt64, length: Int)] = []
  for name in try redoFileNames(in: directory) {
    // A file the applier removed meanwhile is skipped.
    guard let bytes = FileManager.default.contents(atPath: directory + "/" + name) else { continue }
    var offset = 0
    while case .record(let sequence, _, let length) = bytes.withUnsafeBytes({
      RedoRecord.decode(UnsafeRawBufferPointer(rebasing: $0[offset...]))
    }) {
      records.append((sequence, length))
      offset += length
    }
  }
  return records
}

/// Copies the state directory's files byte for byte, as a kill -9 of navd leaves them (the
/// database, its -wal and -shm, the redo log, the record of the run), into `target`.
///
/// The copy stands for the same files after the crash, so its record of the run names the
/// copy's database (`asRestored`: left as it was, naming the original's inode, as a restored
/// backup's would). `syncedBytes` stands for a power loss: each redo file is cut to the size
/// it had at its last fsync (a file never fsynced is left out).
func copyStateFiles(
  from source: String, to target: String, asRestored: Bool = false, syncedBytes: [String: Int]? = nil
) throws {
  for name in try FileManager.default.contentsOfDirectory(atPath: source)
  where name.hasPrefix(SQLiteSceneStore.fileName) || name.hasPrefix(RedoLogFiles.prefix) || name == RunRecord.fileName {
    var bytes = try #require(FileManager.default.contents(atPath: source + "/" + name))
    if let syncedBytes, name.hasPrefix(RedoLogFiles.prefix) {
      guard let size = syncedBytes[source + "/" + name] else { continue }
      bytes = bytes.prefix(size)
    }
    #expect(FileManager.default.createFile(atPath: target + "/" + name, contents: bytes))
  }
  guard !asRestored, case .record(var run) = RunRecord.read(in: target) else { return }
  run.databaseInode = RunRecord.inode(of: target + "/" + SQLiteSceneStore.fileName)
  try run.write(in: target)
}

/// A SHA-free fingerprint of every file in `directory`: names, sizes and bytes.
func directoryContents(_ directory: String) throws -> [String: Data] {
  var contents: [String: Data] = [:]
  for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
    contents[name] = FileManager.default.contents(atPath: directory + "/" + name) ?? Data()
  }
  return contents
}

/// The sequence the database at `path` holds the redo log through.
func redoApplied(_ path: String) throws -> UInt64 {
  UInt64(bitPattern: try SQLiteDatabase(path: path, readOnly: true).integer("SELECT sequence FROM redo_applied"))
}
