import Testing

@testable import NavService

/// `NavdService.connectionClient`, written byte by byte, against the reference
/// `"connection:\(id)"` (the client a Mutate without `clientId` is known by, PROTOCOL §4).
@Suite("Connection client names against the reference")
struct ConnectionClientTests {
  @Test("PROTOCOL §4 a call without clientId is connection:<id>: the same string as interpolating the id")
  func sameAsInterpolation() {
    var seed: UInt64 = 0x5EED_C11E
    var ids: [UInt64] = [0, 1, 9, 10, 99, 100, 12_345, UInt64.max, UInt64.max / 10, 10_000_000_000_000_000_000]
    for _ in 0..<2000 {
      // SplitMix64 inline: this target has no shared test support.
      seed &+= 0x9E37_79B9_7F4A_7C15
      var z = seed
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      ids.append((z ^ (z >> 31)) >> (z % 64))
    }
    for id in ids {
      #expect(NavdService.connectionClient(id) == "connection:\(id)", "seed 0x5EED_C11E, id \(id)")
    }
  }
}
