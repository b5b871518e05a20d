import Foundation

/// A tiny deterministic PRNG (SplitMix64) shared by every test target, so every
/// randomized test prints a seed and replays it (`NAVD_TEST_SEED`).
///
/// Our own helpers (`below`, `chance`, `shuffle`) are used instead of the standard library's
/// `random(in:using:)` so a seed gives the same sequence on every toolchain: the checked-in
/// vectors are regenerated from a seed and compared byte for byte.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The generator's state; the next number follows from it alone.
  public private(set) var state: UInt64

  /// A generator that starts at `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (`bound` > 0); modulo bias is irrelevant for tests.
  public mutating func below(_ bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }

  /// A number in `range`.
  public mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + below(range.count)
  }

  /// True with probability `percent` / 100.
  public mutating func chance(_ percent: Int) -> Bool {
    below(100) < percent
  }

  /// One of `choices` (not empty), uniformly.
  public mutating func pick<T>(_ choices: [T]) -> T {
    choices[below(choices.count)]
  }

  /// Fisher–Yates, with our own index choice for cross-toolchain determinism.
  public mutating func shuffle<T>(_ array: inout [T]) {
    guard array.count > 1 else { return }
    for i in stride(from: array.count - 1, to: 0, by: -1) {
      array.swapAt(i, below(i + 1))
    }
  }

  /// The seed for a test run: `NAVD_TEST_SEED` (decimal or 0x-hex) when set, else `fallback`.
  public static func testSeed(default fallback: UInt64) -> UInt64 {
    guard let text = ProcessInfo.processInfo.environment["NAVD_TEST_SEED"], !text.isEmpty else { return fallback }
    let parsed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    guard let parsed else { fatalError("NAVD_TEST_SEED=\(text) is not a decimal or 0x-hex UInt64") }
    return parsed
  }
}
