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
/// database, its -wal and -shm, the redo log), into `target`.
func copyStateFiles(from source: String, to target: String) throws {
  for name in try FileManager.default.contentsOfDirectory(atPath: source)
  where name.hasPrefix(SQLiteSceneStore.fileName) || name.hasPrefix(RedoLogFiles.prefix) {
    let bytes = try #require(FileManager.default.contents(atPath: source + "/" + name))
    #expect(FileManager.default.createFile(atPath: target + "/" + name, contents: bytes))
  }
}

/// The sequence the database at `path` holds the redo log through.
func redoApplied(_ path: String) throws -> UInt64 {
  UInt64(bitPattern: try SQLiteDatabase(path: path, readOnly: true).integer("SELECT sequence FROM redo_applied"))
}
