/// Remembers the outcome of recent successful mutations by (client, mutation id),
/// so a retry is answered with the original result and applies nothing.
///
/// Bounded: the oldest ids are forgotten first.
struct MutationMemory: Sendable {
  struct Key: Hashable, Sendable {
    var client: String
    var mutationId: String
  }

  struct Entry: Sendable {
    var opsDigest: UInt64
    var outcome: MutationOutcome
  }

  let capacity: Int
  private var entries: [Key: Entry] = [:]
  private var order: [Key] = []
  private var head = 0

  init(capacity: Int) { self.capacity = max(1, capacity) }

  func lookup(_ key: Key) -> Entry? { entries[key] }

  mutating func remember(_ key: Key, _ entry: Entry) {
    entries[key] = entry
    order.append(key)
    if order.count - head > capacity {
      entries[order[head]] = nil
      head += 1
      if head > capacity {
        order.removeFirst(head)
        head = 0
      }
    }
  }

  mutating func forget(_ key: Key) { entries[key] = nil }
}
