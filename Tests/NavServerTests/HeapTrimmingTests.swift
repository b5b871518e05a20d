import Testing

@testable import NavServer

/// PROTOCOL §6 "Bounded memory": memory freed after a burst is given back on the tick.
@Suite("Heap trimming after a burst")
struct HeapTrimmingTests {
  @Test("a tick trims once the heap's free bytes grew by the threshold, and not again without new growth")
  func trimsAfterGrowthOnly() {
    // Amounts well above what tests running alongside allocate and free.
    var heap = HeapTrimming(threshold: 16 << 20)
    heap.tick()
    #expect(heap.trims == 0, "nothing was freed yet")
    // 64 MiB in 4 KiB blocks (below malloc's mmap threshold, so they live in the heap);
    // every other one freed: 32 MiB of free holes that cannot shrink the heap's top.
    let blocks = (0..<16384).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16) }
    for block in blocks { block.storeBytes(of: 1, as: UInt8.self) }
    for (index, block) in blocks.enumerated() where index % 2 == 0 { block.deallocate() }
    heap.tick()
    #expect(heap.trims == 1)
    heap.tick()
    #expect(heap.trims == 1, "no new growth since the trim")
    for (index, block) in blocks.enumerated() where index % 2 == 1 { block.deallocate() }
  }
}
