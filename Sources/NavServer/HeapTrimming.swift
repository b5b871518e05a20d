import CNavSys
import NavSystem

/// Gives memory freed after a burst back to the kernel, on the loop's tick.
///
/// In a burst, subscriber queues and output buffers fill (each within its byte
/// limit) and are freed again once the readers catch up, but glibc keeps freed
/// memory in its heap: after 1,000,000 pipelined mutations to 64 subscribers navd's
/// RSS stayed 2-24 MiB above its level at a tenth of the run with nothing queued
/// (malloc_trim from gdb brought it back). So on each tick navd calls malloc_trim(0)
/// when either rule holds:
///
/// - growth: the resident memory grew by `threshold` (1 MiB) since the last trim or
///   its low point, and the heap holds at least that much free;
/// - idle: the loop had traffic, then a tick found none for `idleDelay` (1 s, a whole
///   tick at the default interval) since the last tick that saw some, and the heap
///   holds at least `idleThreshold` (256 KiB) free. That first idle tick decides,
///   trimming or not; the next idle trim needs new traffic first, so an idle period
///   is trimmed at most once and an idle server not at all.
///
/// Traffic is anything the loop handled (`ServerLoop.handle`: a socket event, an
/// accept, a wake-up for a reply or a stream's new data). Memory in use is never
/// trimmed; steady traffic, which reuses what it frees, only by the growth rule, and
/// traffic with pauses of a second or more at most once per pause.
///
/// 256 KiB (`ProcessHeap.trimThreshold`, also glibc's trim threshold in navd): less
/// than that left free is under 2 % of navd's RSS with subscribers, and not worth a
/// walk of every arena's free chunks plus the page faults when the memory is used
/// again. malloc_trim releases free pages inside every arena but shrinks only the
/// main arena's top; the tops of the other threads' arenas are given back by free()
/// itself, since navd fixes glibc's trim threshold at start-up (`ProcessHeap`).
struct HeapTrimming {
  /// What the rules read and do: the process's heap, or a fake in tests.
  struct Heap {
    var residentBytes: () -> Int
    var freeBytes: () -> Int
    var trim: () -> Void

    static var process: Heap {
      Heap(
        residentBytes: { Int(cnav_resident_bytes()) }, freeBytes: { Int(cnav_heap_free_bytes()) },
        trim: { _ = cnav_heap_trim() })
    }
  }

  /// Growth of the resident memory, and free heap bytes, that make a trim worth it.
  let threshold: Int
  /// Free heap bytes that make a trim worth it once the loop is idle.
  let idleThreshold: Int
  /// How long without traffic makes the loop idle.
  let idleDelay: Duration
  private let heap: Heap
  /// The least resident memory seen since the last trim.
  private var baseline: Int
  /// The last tick that saw traffic, while this idle period's trim is still due
  /// (nil: decided since, or no traffic yet).
  private var lastTraffic: ContinuousClock.Instant?
  /// Trims done (tests).
  private(set) var trims = 0

  init(
    threshold: Int = 1 << 20, idleThreshold: Int = ProcessHeap.trimThreshold, idleDelay: Duration = .seconds(1),
    heap: Heap = .process
  ) {
    self.threshold = threshold
    self.idleThreshold = idleThreshold
    self.idleDelay = idleDelay
    self.heap = heap
    baseline = heap.residentBytes()
  }

  /// Trims when a rule holds; cheap otherwise (one read of /proc/self/statm, and
  /// mallinfo2 only when a rule's first half holds). `traffic`: whether the loop
  /// handled anything since the previous tick.
  mutating func tick(now: ContinuousClock.Instant, traffic: Bool) {
    if traffic { lastTraffic = now }
    // A tick with traffic is not idle: it just set `lastTraffic` to now.
    let idle = lastTraffic.map { now - $0 >= idleDelay } ?? false
    if idle { lastTraffic = nil }
    let resident = heap.residentBytes()
    baseline = min(baseline, resident)
    let grew = resident >= baseline + threshold
    guard grew || idle, heap.freeBytes() >= (idle ? min(idleThreshold, threshold) : threshold) else { return }
    heap.trim()
    trims += 1
    baseline = heap.residentBytes()
  }
}
