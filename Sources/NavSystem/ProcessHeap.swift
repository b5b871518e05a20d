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
  /// top, not the top of an arena that other threads (the cooperative pool, the redo
  /// log's writer) allocate from. So after a burst each of those arenas kept its
  /// high-water resident: navd's settled RSS after 1,000,000 pipelined mutations to 64
  /// subscribers was up to 1.7 MiB above its settled RSS after the first tenth (−0.2 …
  /// +11.7 %, 9 runs), all of it anonymous memory; a malloc_trim from gdb released
  /// 40 KiB, and malloc_info showed one thread's arena with 928 KiB of free top
  /// resident. With the threshold fixed, free() gives any arena's top back once more
  /// than 256 KiB is free there: −0.3 … +0.6 % in 9 runs (`GLIBC_TUNABLES` with the
  /// same value). Pipelined and fan-out throughput and CPU per publish did not change
  /// beyond run-to-run noise; CPU per delivery to 64 subscribers perhaps by 2 % (84.4 →
  /// 86.3 µs, medians of 6 runs each). Fixing it also fixes the mmap threshold at its
  /// default (128 KiB): larger blocks are always mmapped, and unmapped when freed
  /// (raising it to 4 MiB changed nothing measurable).
  public static func fixTrimThreshold() {
    _ = cnav_heap_fix_trim_threshold(trimThreshold)
  }

  /// Bytes malloc has handed out and not had back, in every arena and mmapped: what a
  /// structure's memory bound is measured against (`MutationMemoryHeapTests`).
  public static var bytesInUse: Int { Int(cnav_heap_in_use()) }
}
