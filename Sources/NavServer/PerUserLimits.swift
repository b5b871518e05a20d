/// Connections and queued output per uid, so one user cannot exhaust navd for the
/// others (dbus-broker and systemd's varlink keep the same kind of per-user quota).
///
/// navd's own uid is exempt: a per-user navd serves only its owner, and a system navd's
/// own uid runs no clients. The loop thread owns it; no locking, and no run-time
/// exclusivity checks on its tables (`@exclusivity(unchecked)`, as `Connection`'s):
/// it is consulted on every flush.
final class PerUserLimits {
  let maxConnections: Int
  let maxOutputBytes: Int
  let exemptUID: UInt32
  @exclusivity(unchecked) private var connections: [UInt32: Int] = [:]
  @exclusivity(unchecked) private var output: [UInt32: Int] = [:]
  /// What each connection was last counted with (uid, queued bytes).
  @exclusivity(unchecked) private var counted: [UInt64: (uid: UInt32, bytes: Int)] = [:]

  init(maxConnections: Int, maxOutputBytes: Int, exemptUID: UInt32) {
    self.maxConnections = maxConnections
    self.maxOutputBytes = maxOutputBytes
    self.exemptUID = exemptUID
  }

  /// Counts a new connection of `uid` unless that uid is at its limit (then false).
  func admit(_ connection: UInt64, uid: UInt32) -> Bool {
    guard uid != exemptUID else { return true }
    let open = connections[uid, default: 0]
    guard open < maxConnections else { return false }
    connections[uid] = open + 1
    counted[connection] = (uid, 0)
    return true
  }

  /// Open connections counted for `uid`.
  func connectionCount(of uid: UInt32) -> Int { connections[uid, default: 0] }

  /// Records that `connection` now has `bytes` queued; returns whether its uid's total
  /// is over `maxOutputBytes`.
  func outputQueued(_ connection: UInt64, bytes: Int) -> Bool {
    guard let entry = counted[connection] else { return false }
    let total = output[entry.uid, default: 0] - entry.bytes + bytes
    output[entry.uid] = total
    counted[connection] = (entry.uid, bytes)
    return total > maxOutputBytes
  }

  /// Queued output counted for `uid` (logs, tests).
  func outputBytes(of uid: UInt32) -> Int { output[uid, default: 0] }

  /// Forgets a closed connection.
  func closed(_ connection: UInt64) {
    guard let entry = counted.removeValue(forKey: connection) else { return }
    let remaining = connections[entry.uid, default: 1] - 1
    connections[entry.uid] = remaining > 0 ? remaining : nil
    let bytes = output[entry.uid, default: 0] - entry.bytes
    output[entry.uid] = bytes > 0 ? bytes : nil
  }
}
