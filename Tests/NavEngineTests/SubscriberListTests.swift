import NavService
import NavTestSupport
import Testing

@testable import NavEngine

/// `SubscriberList`, the array the publish walks, against the simple reference it
/// replaced: a dictionary of subscribers by id.
@Suite("SubscriberList: the same members as a dictionary by id")
struct SubscriberListTests {
  @Test("§6 random adds and removes leave the same members as a dictionary (seeded)")
  func matchesDictionary() {
    let seed = SplitMix64.testSeed(default: 20_261_201)
    var random = SplitMix64(seed: seed)
    let pool = (1...40).map { Subscriber(id: UInt64($0), queueLimit: 1 << 20, encoder: WireStreamEncoder(), wake: {}) }
    var list = SubscriberList()
    var reference: [UInt64: Subscriber] = [:]
    for step in 0..<5000 {
      let subscriber = random.pick(pool)
      if random.chance(55) {
        list.add(subscriber)
        reference[subscriber.id] = subscriber
      } else {
        list.remove(subscriber.id)
        reference[subscriber.id] = nil
      }
      let ids = list.members.map(\.id)
      #expect(ids.sorted() == reference.keys.sorted(), "seed \(seed), step \(step)")
      #expect(Set(ids).count == ids.count, "each subscriber once: seed \(seed), step \(step)")
      #expect(list.count == reference.count && list.isEmpty == reference.isEmpty, "seed \(seed), step \(step)")
      #expect(list.members.allSatisfy { reference[$0.id] === $0 }, "seed \(seed), step \(step)")
    }
  }
}
