import CNavSys
import Testing

@testable import NavServer

/// PROTOCOL §6 "Bounded memory": memory freed after a burst is given back on the tick.
@Suite("Heap trimming after a burst")
struct HeapTrimmingTests {
  @Test("a tick trims once resident memory grew and the heap holds free bytes, and not again without new growth")
  func trimsAfterGrowthOnly() {
    // Traffic on every tick: the growth rule alone. Amounts well above what tests
    // running alongside allocate and free.
    var heap = HeapTrimming(threshold: 16 << 20)
    var now = ContinuousClock.now
    func tick() {
      now += .seconds(1)
      heap.tick(now: now, traffic: true)
    }
    tick()
    #expect(heap.trims == 0, "nothing was freed yet")
    // 64 MiB in 4 KiB blocks (below malloc's mmap threshold, so they live in the heap);
    // all but every 16th freed: 60 MiB in 60 KiB holes, which cannot shrink the heap's
    // top but hold whole pages that a trim gives back.
    let blocks = (0..<16384).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16) }
    for block in blocks { block.storeBytes(of: 1, as: UInt8.self) }
    for (index, block) in blocks.enumerated() where index % 16 != 0 { block.deallocate() }
    let residentBefore = cnav_resident_bytes()
    tick()
    #expect(heap.trims == 1)
    let released = residentBefore - cnav_resident_bytes()
    #expect(released >= 32 << 20, "the trim gave back \(released) bytes of the 60 MiB freed")
    tick()
    #expect(heap.trims == 1, "no new growth since the trim")
    for (index, block) in blocks.enumerated() where index % 16 == 0 { block.deallocate() }
  }

  /// A heap whose numbers the test sets, counting the trims asked of it.
  final class FakeHeap {
    var resident = 10 << 20
    var free = 0
    var trims = 0

    var heap: HeapTrimming.Heap {
      HeapTrimming.Heap(
        residentBytes: { self.resident }, freeBytes: { self.free }, trim: { self.trims += 1 })
    }
  }

  @Test("the idle rule: one trim on the first idle tick after traffic, with enough free, per idle period")
  func trimsOnceWhenIdle() {
    let fake = FakeHeap()
    var trimming = HeapTrimming(heap: fake.heap)
    var now = ContinuousClock.now
    // (what happened since the previous tick, free heap KiB, whether this tick trims)
    let steps: [(traffic: Bool, freeKiB: Int, trims: Bool, why: String)] = [
      (false, 512, false, "idle since start: no burst to give back"),
      (true, 512, false, "traffic"),
      (true, 768, false, "steady traffic, however much is free"),
      (false, 768, true, "the first idle tick after traffic, 768 KiB free"),
      (false, 768, false, "still idle: this period was trimmed"),
      (false, 768, false, "still idle"),
      (true, 512, false, "new traffic"),
      (false, 512, true, "idle again: trims again"),
      (true, 512, false, "traffic"),
      (false, 255, false, "idle, but under 256 KiB free"),
      (false, 512, false, "the period's one chance was taken"),
      (true, 256, false, "traffic"),
      (false, 256, true, "idle with exactly 256 KiB free"),
    ]
    for (index, step) in steps.enumerated() {
      now += .seconds(1)
      fake.free = step.freeKiB << 10
      let before = fake.trims
      trimming.tick(now: now, traffic: step.traffic)
      #expect(fake.trims - before == (step.trims ? 1 : 0), "step \(index): \(step.why)")
    }
    #expect(trimming.trims == 3)
  }

  @Test("idle means a whole second without traffic, however short the ticks")
  func idleAfterASecond() {
    let fake = FakeHeap()
    fake.free = 1 << 20
    var trimming = HeapTrimming(heap: fake.heap)
    var now = ContinuousClock.now
    trimming.tick(now: now, traffic: true)
    for _ in 0..<3 {
      now += .milliseconds(250)
      trimming.tick(now: now, traffic: false)
    }
    #expect(fake.trims == 0, "750 ms without traffic")
    now += .milliseconds(250)
    trimming.tick(now: now, traffic: false)
    #expect(fake.trims == 1, "a second without traffic")
  }

  @Test("the growth rule still trims under steady traffic, the idle rule not")
  func growthUnderTraffic() {
    let fake = FakeHeap()
    fake.free = 2 << 20
    var trimming = HeapTrimming(heap: fake.heap)
    var now = ContinuousClock.now
    for step in 0..<5 {
      now += .seconds(1)
      if step == 2 { fake.resident += 1 << 20 }
      trimming.tick(now: now, traffic: true)
    }
    #expect(fake.trims == 1, "only the tick that saw 1 MiB of growth")
  }
}
