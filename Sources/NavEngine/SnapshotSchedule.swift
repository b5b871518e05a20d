/// When a commit record carries a snapshot of the scene (PROTOCOL.md,
/// "Durability"): with the scene's first version, then every
/// `snapshotInterval` versions or once `snapshotBytes` of ops were logged
/// since the last snapshot, whichever comes first. Start-up replays only the
/// versions after the newest snapshot, so this bounds its work per scene.
struct SnapshotSchedule: Sendable {
  /// The version of the newest snapshot; nil before the scene's first version is stored.
  var lastVersion: UInt64?
  /// Bytes of ops logged after `lastVersion`.
  var bytesSince = 0

  /// Counts a new version and says whether its record carries a snapshot.
  mutating func record(version: UInt64, opsBytes: Int, configuration: EngineConfiguration) -> Bool {
    bytesSince += opsBytes
    let due =
      lastVersion.map {
        version - $0 >= UInt64(max(1, configuration.snapshotInterval)) || bytesSince >= configuration.snapshotBytes
      } ?? true
    if due {
      lastVersion = version
      bytesSince = 0
    }
    return due
  }
}
