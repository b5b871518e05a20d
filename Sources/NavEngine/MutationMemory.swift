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

  /// What an id costs on the heap, which is what `byteLimit` bounds: its slot in `entries`
  /// and in `order` with their growth slack (`perIdBytes`), each key string stored out of
  /// line (`heapBytes`), and the remembered reply's overwritten values (their array, strings,
  /// and each value at twice its wire form, about what a decoded `JSONValue` takes).
  /// `MutationMemoryHeapTests` holds it to glibc's count of the bytes in use.
  ///
  /// It used to count the strings' bytes and a fixed 64: a tenth to a third of what an id
  /// takes, so a scene's ids took 3.5–4.9 MB against the documented 1 MiB.
  static func footprint(_ key: Key, _ outcome: MutationOutcome) -> Int {
    var bytes = perIdBytes + heapBytes(key.client) + heapBytes(key.mutationId)
    guard !outcome.overwritten.isEmpty else { return bytes }
    bytes += 48 + outcome.overwritten.count * MemoryLayout<Overwrite>.stride
    for overwrite in outcome.overwritten {
      bytes += heapBytes(overwrite.field.description) + heapBytes(overwrite.writtenBy)
      bytes += 32 + 2 * JSONWriter.bytes(overwrite.previousValue).count
    }
    return bytes
  }

  /// An id's share of the two tables: a dictionary slot (key and entry) at up to 3/4 load
  /// with its power-of-two growth, and a slot of `order`, which keeps up to twice the ids
  /// remembered before it is compacted.
  static let perIdBytes =
    2 * (MemoryLayout<Key>.stride + MemoryLayout<Entry>.stride) + 2 * MemoryLayout<Key>.stride

  /// The heap bytes of a string's storage: none for up to 15 UTF-8 bytes (stored in the
  /// string itself), else a native object (a 32-byte header, the bytes and a NUL) in a
  /// malloc chunk (8 bytes of its own, rounded up to 16).
  static func heapBytes(_ string: String) -> Int {
    let count = string.utf8.count
    return count <= 15 ? 0 : (32 + count + 1 + 8 + 15) / 16 * 16
  }
}
