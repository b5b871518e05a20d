import Synchronization

/// The documents one scene keeps for its views, bounded in bytes (`layoutCacheBytes`):
/// past the bound, the views least recently brought up to date let go of their live
/// document (`SubscriptionGroup.evict`) and build it again from the scene's state when
/// next pulled. A view is weighed at what it holds resident (`SubscriptionGroup.residentBytes`:
/// its layout document, the layout its previous version keeps and its snapshot frame), not
/// at its encoded document's size, which is several times smaller.
///
/// Recency is kept as a queue of uses, oldest first, each with the tick it was made at:
/// an eviction takes uses from the front and skips those a later use superseded, so a
/// use and an eviction cost the same however many views there are (amortized: the queue
/// is compacted once its superseded uses outnumber the views).
final class LayoutCache: Sendable {
  private struct Held {
    var channel: ViewChannel
    var bytes: Int
    var tick: UInt64
  }

  private struct Books {
    var held: [ObjectIdentifier: Held] = [:]
    var uses: [(id: ObjectIdentifier, tick: UInt64)] = []
    var front = 0
    var bytes = 0
    var tick: UInt64 = 0
  }

  /// Bytes of documents held past which views are evicted.
  let limit: Int
  private let books = Mutex(Books())

  /// A cache of at most `limit` bytes.
  init(limit: Int) { self.limit = limit }

  /// Bytes of documents held now.
  var bytes: Int { books.withLock(\.bytes) }

  /// `channel` holds a live document of `bytes` and was just used; returns the views to
  /// evict to stay under `limit` (never `channel` itself), which the caller evicts outside
  /// this lock.
  func used(_ channel: ViewChannel, bytes: Int) -> [ViewChannel] {
    books.withLock { books in
      let id = ObjectIdentifier(channel)
      books.tick += 1
      books.bytes += bytes - (books.held[id]?.bytes ?? 0)
      books.held[id] = Held(channel: channel, bytes: bytes, tick: books.tick)
      books.uses.append((id, books.tick))
      var evicted: [ViewChannel] = []
      while books.bytes > limit, books.front < books.uses.count {
        let use = books.uses[books.front]
        books.front += 1
        guard use.id != id, let held = books.held[use.id], held.tick == use.tick else { continue }
        books.held[use.id] = nil
        books.bytes -= held.bytes
        evicted.append(held.channel)
      }
      if books.uses.count - books.front > 2 * books.held.count + 16 { compact(&books) }
      return evicted
    }
  }

  /// `channel` holds no live document any more (evicted, or nobody follows it).
  func forget(_ channel: ViewChannel) {
    books.withLock { books in
      guard let held = books.held.removeValue(forKey: ObjectIdentifier(channel)) else { return }
      books.bytes -= held.bytes
    }
  }

  /// Keeps only each held view's latest use, in order.
  private func compact(_ books: inout Books) {
    books.uses = books.uses[books.front...].filter { books.held[$0.id]?.tick == $0.tick }
    books.front = 0
  }
}
