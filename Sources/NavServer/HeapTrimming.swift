import CNavSys

/// Gives memory freed after a burst back to the kernel, on the loop's tick.
///
/// In a burst, subscriber queues and output buffers fill (each within its byte
/// limit) and are freed again once the readers catch up, but glibc keeps freed
/// memory in its heap: after 1,000,000 pipelined mutations to 64 subscribers navd's
/// RSS stayed 6-25 MiB above its level at a tenth of the run with nothing queued
/// (malloc_trim from gdb brought it back). So on each tick, when the heap's free
/// bytes grew by `threshold` since the last trim (or since their low point), navd
/// calls malloc_trim(0). Steady traffic reuses its free memory and is not trimmed.
struct HeapTrimming {
  /// Growth of the heap's free bytes that makes a trim worth its page faults.
  let threshold: Int
  /// The fewest free bytes seen since the last trim.
  private var baseline: Int
  /// Trims done (tests).
  private(set) var trims = 0

  init(threshold: Int = 4 << 20) {
    self.threshold = threshold
    baseline = Int(cnav_heap_free_bytes())
  }

  /// Trims when the free bytes grew by `threshold`; cheap otherwise (mallinfo2).
  mutating func tick() {
    let free = Int(cnav_heap_free_bytes())
    baseline = min(baseline, free)
    guard free >= baseline + threshold else { return }
    _ = cnav_heap_trim()
    trims += 1
    baseline = free
  }
}
