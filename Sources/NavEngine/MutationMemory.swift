import NavModel

/// Remembers the outcome of recent successful mutations by (client, mutation id),
/// so a retry is answered with the original result and applies nothing
/// (CONFLICTS.md I1–I4).
///
/// Bounded in count and in bytes (`footprint`); the oldest ids are forgotten
/// first. Ids are remembered in version order, so what has been forgotten is
/// always exactly "every id of a version at or below `forgottenThrough`",
/// which is what the store is told to forget too.
struct MutationMemory: Sendable {
  struct Key: Hashable, Sendable {
    var client: String
    var mutationId: String
  }

  struct Entry: Sendable {
    var opsDigest: UInt64
    var outcome: MutationOutcome
    /// What this id counts toward the byte bound (`footprint`).
    var bytes: Int
  }

  let capacity: Int
  let byteLimit: Int
  private var entries: [Key: Entry] = [:]
  /// Keys in the order they were remembered; those before `head` are forgotten.
  private var order: [Key] = []
  private var head = 0
  private(set) var bytes = 0
  /// Every id of a version at or below this one has been forgotten.
  private(set) var forgottenThrough: UInt64 = 0

  init(capacity: Int, byteLimit: Int) {
    self.capacity = max(1, capacity)
    self.byteLimit = byteLimit
  }

  var count: Int { order.count - head }

  func lookup(_ key: Key) -> Entry? { entries[key] }

  /// Remembers `key` (not already remembered), forgetting the oldest ids past
  /// either bound; the newest is always kept.
  mutating func remember(_ key: Key, _ entry: Entry) {
    entries[key] = entry
    order.append(key)
    bytes += entry.bytes
    while count > 1 && (count > capacity || bytes > byteLimit) {
      if let dropped = entries.removeValue(forKey: order[head]) {
        bytes -= dropped.bytes
        forgottenThrough = max(forgottenThrough, dropped.outcome.version)
      }
      head += 1
    }
    if head >= 64 && head * 2 >= order.count {
      order.removeFirst(head)
      head = 0
    }
  }

  /// What `forgottenThrough` would be after remembering each of `added`, in
  /// order — without remembering them (a commit group is planned before it is stored).
  func forgottenThrough(afterAdding added: [Entry]) -> [UInt64] {
    var count = self.count
    var bytes = self.bytes
    var through = forgottenThrough
    var cursor = head
    var pending = 0
    var result: [UInt64] = []
    for entry in added {
      count += 1
      bytes += entry.bytes
      while count > 1 && (count > capacity || bytes > byteLimit) {
        let dropped: Entry?
        if cursor < order.count {
          dropped = entries[order[cursor]]
          cursor += 1
        } else {
          dropped = added[pending]
          pending += 1
        }
        count -= 1
        if let dropped {
          bytes -= dropped.bytes
          through = max(through, dropped.outcome.version)
        }
      }
      result.append(through)
    }
    return result
  }

  /// The bytes an id counts for: both key strings, the remembered reply with
  /// its overwritten values in wire form, and a fixed 64 for the digest,
  /// version and bookkeeping.
  static func footprint(_ key: Key, _ outcome: MutationOutcome) -> Int {
    var bytes = 64 + key.client.utf8.count + key.mutationId.utf8.count
    for overwrite in outcome.overwritten {
      bytes += 16 + overwrite.field.description.utf8.count + overwrite.writtenBy.utf8.count
      bytes += JSONWriter.bytes(overwrite.previousValue).count
    }
    return bytes
  }
}
