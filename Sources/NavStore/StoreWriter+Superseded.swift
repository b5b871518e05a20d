import NavEngine

/// What of a record one transaction need not write, because a later record of the same
/// transaction undoes it: a snapshot trims the log at or below its version, and the last
/// snapshot of a scene replaces the ones before it.
///
/// The redo log's applier writes a few milliseconds of records at a time, and a scene
/// carries a snapshot every 256 versions (`SnapshotSchedule`), so most of a busy scene's
/// log rows were inserted only for the same transaction's trim to delete them again.
struct Superseded: OptionSet {
  let rawValue: UInt8
  /// The record's log row: a snapshot at or above its version, in this transaction, trims it.
  static let logRow = Superseded(rawValue: 1)
  /// The record's snapshot (and its trim): a later one of this transaction replaces it.
  static let snapshot = Superseded(rawValue: 2)
}

extension StoreWriter {
  /// What of each of `records` may be left out, or nil when nothing may (no record carries
  /// a snapshot: the usual group of the event loop's own commits).
  ///
  /// The database ends the same as if every row were written: the rows left out are those
  /// the transaction's own trim deletes. Only a scene whose records in `records` share one
  /// epoch and rise in version leaves anything out, and only when `hasLog(scene, version)`
  /// says the database holds none of its log rows from its first version here up: so a
  /// version stored twice is still inserted, and its log row's key refuses it as before.
  static func supersededRows(
    _ records: [StoreRow], hasLog: (_ scene: String, _ from: UInt64) throws(StoreError) -> Bool
  ) throws(StoreError) -> [Superseded]? {
    guard records.contains(where: { $0.snapshot != nil }) else { return nil }
    var superseded = [Superseded](repeating: [], count: records.count)
    // Per scene, walking back from its last record: its epoch, whether a snapshot was seen
    // (every record before it is then trimmed by it), and the lowest version so far.
    var scenes: [String: (epoch: String, snapshotSeen: Bool, lowest: UInt64)] = [:]
    var keepAll: Set<String> = []
    for index in records.indices.reversed() {
      let record = records[index]
      guard var scene = scenes[record.scene] else {
        scenes[record.scene] = (record.epoch, record.snapshot != nil, record.version)
        if record.snapshot != nil { superseded[index] = .logRow }
        continue
      }
      guard scene.epoch == record.epoch, record.version < scene.lowest else {
        keepAll.insert(record.scene)
        continue
      }
      scene.lowest = record.version
      if scene.snapshotSeen {
        superseded[index] = record.snapshot != nil ? [.logRow, .snapshot] : .logRow
      } else if record.snapshot != nil {
        scene.snapshotSeen = true
        superseded[index] = .logRow
      }
      scenes[record.scene] = scene
    }
    var anything = false
    for (name, scene) in scenes where scene.snapshotSeen {
      var keep = keepAll.contains(name)
      if !keep { keep = try hasLog(name, scene.lowest) }
      if keep {
        for index in records.indices where records[index].scene == name { superseded[index] = [] }
      } else {
        anything = true
      }
    }
    return anything ? superseded : nil
  }
}
