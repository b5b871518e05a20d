import Testing

@testable import NavSystem

/// `ProcessHeap.fixMmapThreshold`: the event loop's large blocks come from the arenas, so no
/// mmap of theirs waits for another thread's munmap (issue 27 item 10).
@Suite("The process heap's thresholds")
struct ProcessHeapTests {
  @Test("issue 27 with the mmap threshold fixed, a 1 MiB block is not mmapped")
  func largeBlocksComeFromTheArenas() {
    ProcessHeap.fixMmapThreshold()
    // Other tests may map or unmap blocks meanwhile: one try of five without a change will do.
    let unmapped = (0..<5).contains { _ in
      let before = ProcessHeap.mmappedBytes
      let block = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
      defer { block.deallocate() }
      block.storeBytes(of: 1, as: UInt8.self)
      return ProcessHeap.mmappedBytes - before < 1 << 20
    }
    #expect(unmapped)
  }
}
