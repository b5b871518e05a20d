import CNavSys

/// Gives memory freed after a burst back to the kernel, on the loop's tick.
///
/// In a burst, subscriber queues and output buffers fill (each within its byte
/// limit) and are freed again once the readers catch up, but glibc keeps freed
/// memory in its heap: after 1,000,000 pipelined mutations to 64 subscribers navd's
/// RSS stayed 2-24 MiB above its level at a tenth of the run with nothing queued
/// (malloc_trim from gdb brought it back). So on each tick (at most once a second),
/// when the resident memory grew by `threshold` (1 MiB) since the last trim or its
/// low point and the heap holds at least that much free, navd calls malloc_trim(0).
/// Memory in use is never trimmed, and steady traffic, which reuses what it frees,
/// rarely is.
struct HeapTrimming {
  /// Growth of the resident memory, and free heap bytes, that make a trim worth it.
  let threshold: Int
  /// The least resident memory seen since the last trim.
  private var baseline: Int
  /// Trims done (tests).
  private(set) var trims = 0

  init(threshold: Int = 1 << 20) {
    self.threshold = threshold
    baseline = Int(cnav_resident_bytes())
  }

  /// Trims when the resident memory grew and the heap holds free bytes; cheap otherwise.
  mutating func tick() {
    let resident = Int(cnav_resident_bytes())
    baseline = min(baseline, resident)
    guard resident >= baseline + threshold, Int(cnav_heap_free_bytes()) >= threshold else { return }
    _ = cnav_heap_trim()
    trims += 1
    baseline = Int(cnav_resident_bytes())
  }
}
