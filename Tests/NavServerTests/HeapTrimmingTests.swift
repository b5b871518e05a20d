import CNavSys
import Testing

@testable import NavServer

/// PROTOCOL §6 "Bounded memory": memory freed after a burst is given back on the tick.
@Suite("Heap trimming after a burst")
struct HeapTrimmingTests {
  @Test("a tick trims once resident memory grew and the heap holds free bytes, and not again without new growth")
  func trimsAfterGrowthOnly() {
    // Amounts well above what tests running alongside allocate and free.
    var heap = HeapTrimming(threshold: 16 << 20)
    heap.tick()
    #expect(heap.trims == 0, "nothing was freed yet")
    // 64 MiB in 4 KiB blocks (below malloc's mmap threshold, so they live in the heap);
    // all but every 16th freed: 60 MiB in 60 KiB holes, which cannot shrink the heap's
    // top but hold whole pages that a trim gives back.
    let blocks = (0..<16384).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16) }
    for block in blocks { block.storeBytes(of: 1, as: UInt8.self) }
    for (index, block) in blocks.enumerated() where index % 16 != 0 { block.deallocate() }
    let residentBefore = cnav_resident_bytes()
    heap.tick()
    #expect(heap.trims == 1)
    let released = residentBefore - cnav_resident_bytes()
    #expect(released >= 32 << 20, "the trim gave back \(released) bytes of the 60 MiB freed")
    heap.tick()
    #expect(heap.trims == 1, "no new growth since the trim")
    for (index, block) in blocks.enumerated() where index % 16 == 0 { block.deallocate() }
  }
}
