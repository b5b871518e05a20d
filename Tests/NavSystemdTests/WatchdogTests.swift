import Synchronization
import Testing

@testable import NavSystemd

@Suite("Watchdog (issue 10)")
struct WatchdogTests {
  @Test("Watchdog: pings at most every half interval, however often the loop ticks")
  func halfInterval() {
    let pings = Atomic<Int>(0)
    let watchdog = Watchdog(interval: .seconds(10)) { pings.add(1, ordering: .relaxed) }
    let start = ContinuousClock.now
    for tenth in 0...200 { watchdog.tick(now: start + .milliseconds(100 * tenth)) }  // 20 s of ticks
    #expect(pings.load(ordering: .relaxed) == 5, "at 0, 5, 10, 15 and 20 s")
    #expect(watchdog.tickInterval == .milliseconds(2500))
  }
}
