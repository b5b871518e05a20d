/// What a Swift retain and release cost on this machine, next to the same calls doing a
/// plain add: the runtime's reference counts are changed with locked (atomic)
/// instructions, which callgrind counts as a handful of instructions each but which
/// take tens of cycles. It says how much of navd's time per mutation its retains and
/// releases are (`bench/profile.sh` counts them), on the machine of the run.
struct RefcountCost {
  let measurements: Measurements
  /// Pairs timed per figure: ~0.5 s of CPU on this project's VMs.
  static let pairs = 20_000_000

  func run() {
    let box = Counted()
    let unmanaged = Unmanaged.passUnretained(box)
    var start = processCPUNanoseconds()
    for _ in 0..<Self.pairs {
      retain(unmanaged)
      release(unmanaged)
    }
    let counted = processCPUNanoseconds() - start
    start = processCPUNanoseconds()
    for _ in 0..<Self.pairs {
      add(box, 1)
      add(box, -1)
    }
    let plain = processCPUNanoseconds() - start
    precondition(box.value == 0, "the plain adds did not cancel out")
    measurements.record(
      "engine.refcount.atomic", "a swift_retain and a swift_release (one object, one thread)", "ns",
      Double(counted) / Double(Self.pairs))
    measurements.record(
      "engine.refcount.plain", "the same two calls doing a plain add instead", "ns",
      Double(plain) / Double(Self.pairs))
  }
}

/// The object whose count the loop changes.
private final class Counted {
  var value = 0
}

// Out of line, so that the optimizer can neither pair the retain with the release nor
// fold the adds: each is one call, as in the runtime.
@inline(never) private func retain(_ object: Unmanaged<Counted>) { _ = object.retain() }
@inline(never) private func release(_ object: Unmanaged<Counted>) { object.release() }
@inline(never) private func add(_ object: Counted, _ amount: Int) { object.value &+= amount }
