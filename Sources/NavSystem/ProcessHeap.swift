import CNavSys

/// The process's malloc heap: how much memory glibc keeps free instead of giving it back.
public enum ProcessHeap {
  /// Free bytes worth giving back to the kernel: glibc's trim threshold, fixed at
  /// start-up (`fixTrimThreshold`), and the least free heap for which navd's idle trim
  /// runs (NavServer's `HeapTrimming`). Under 2 % of navd's RSS with subscribers
  /// (about 12 MiB), well inside the memory benchmark's 5 % "flat" target; twice
  /// glibc's default, since giving back and faulting in again costs system calls.
  public static let trimThreshold = 256 << 10

  /// Fixes glibc's trim threshold at `trimThreshold`; call once, first thing in `main`.
  ///
  /// By default glibc raises its trim threshold as it goes (to twice the largest
  /// mmapped block freed, up to 64 MiB), and malloc_trim shrinks only the main arena's
  /// top, not the top of an arena other threads (the cooperative pool, the redo log's
  /// writer) allocate from, so after a burst each of those arenas kept its high-water
  /// resident. With the threshold fixed, free() gives any arena's top back once more than
  /// `trimThreshold` is free there (BENCHMARKS.md, "glibc's trim threshold"). Fixing it
  /// also fixes the mmap threshold, at its default (128 KiB) unless `fixMmapThreshold`
  /// raises it.
  public static func fixTrimThreshold() {
    _ = cnav_heap_fix_trim_threshold(trimThreshold)
  }

  /// Blocks smaller than this come from the arenas, not from mmap (`fixMmapThreshold`): 4 MiB,
  /// above a 1 MiB frame and its buffers, a redo-log chunk or a commit group's record.
  public static let mmapThreshold = 4 << 20

  /// Fixes glibc's mmap threshold at `mmapThreshold`; call once, first thing in `main`.
  ///
  /// At 128 KiB every large block is mmapped and unmapped again when freed, and both take
  /// the process's memory-map lock for writing: the redo log's applier (a thread of low
  /// priority, `ApplierPriority`) unmapping a chunk it applied was preempted with the lock
  /// held, and the event loop's next mmap waited for it: that was the worst answer to
  /// other clients while one streamed 1 MiB frames (BENCHMARKS.md, "Large frames and the
  /// event loop"). The arenas' free memory still goes back to the kernel (`trimThreshold`,
  /// NavServer's `HeapTrimming`).
  public static func fixMmapThreshold() {
    _ = cnav_heap_fix_mmap_threshold(mmapThreshold)
  }

  /// Bytes of mmapped blocks in use: those at or above the mmap threshold.
  public static var mmappedBytes: Int { Int(cnav_heap_mmapped_bytes()) }

  /// Bytes malloc has handed out and not had back, in every arena and mmapped: what a
  /// structure's memory bound is measured against (`MutationMemoryHeapTests`).
  public static var bytesInUse: Int { Int(cnav_heap_in_use()) }
}
