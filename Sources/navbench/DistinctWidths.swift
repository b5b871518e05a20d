/// `widths` (issue 25): what distinct subscriber widths cost navd. The same number of
/// subscribers, all reading, first at one width and then each at its own, on the ops
/// scene with a right bar button item's title changed per publish (closed loop).
extension Bench {
  /// Closed-loop rounds of each half, after a tenth as many to warm up.
  static let widthRounds = 100

  func widths(_ navd: NavdTarget) throws {
    var target = navd
    target.kind = .rightItemTitle
    var bench = Bench(target: target, settings: settings, measurements: measurements, pid: pid)
    bench.opKind = nil
    // The halves' scenes are this run's to remove (`Bench.run`), not the inner bench's.
    defer { for channel in bench.prepared.taken() { prepared.add(channel) } }
    let count = settings.widthSubscribers
    let deadline = Deadline(seconds: settings.memorySeconds)
    let rssStart = settledResidentMiB(deadline: deadline) { residentMiB() }
    let shared = try bench.widthHalf(target, channel: "bench-widths-shared", count: count) { _ in OpKind.width }
    let rssShared = settledResidentMiB(deadline: deadline) { residentMiB() }
    let distinct = try bench.widthHalf(target, channel: "bench-widths-distinct", count: count) { 320 + $0 }
    let rssDistinct = settledResidentMiB(deadline: deadline) { residentMiB() }
    record("widths.shared.cpu", "\(count) subscribers at one width: server CPU per publish", "µs", shared.cpu)
    record("widths.distinct.cpu", "\(count) subscribers at \(count) widths: server CPU per publish", "µs", distinct.cpu)
    record("widths.ratio", "server CPU per publish, \(count) widths / one", "×", distinct.cpu / shared.cpu)
    // Both halves hold `count` subscribers and one scene; the distinct half holds count − 1 widths more.
    let perWidth = ((rssDistinct - rssShared) - (rssShared - rssStart)) / Double(count - 1) * 1024
    record("widths.rssPerWidth", "server RSS per distinct width (settled)", "KiB", perWidth)
    withExtendedLifetime((shared.subscribers, distinct.subscribers)) {}
  }

  /// One half: `count` subscribers to a fresh scene of the ops shape, the `i`th at
  /// `width(i)`, and the server's CPU per closed-loop publish to all of them. The
  /// subscribers stay open (the memory reading after it counts them).
  private func widthHalf(
    _ target: NavdTarget, channel: String, count: Int, width: @escaping (Int) -> Int
  ) throws -> (cpu: Double, subscribers: SubscriberSet) {
    let writer = try target.connect()
    writer.setTimeout(milliseconds: 10_000)
    prepared.add(channel)
    try target.prepare(writer, channel: channel)
    let subscribers = try SubscriberSet(target: target, channel: channel, count: count) {
      target.subscribeFrame(channel: channel, width: width($0))
    }
    var cpuBefore: Double?
    let (_, lasts) = try closedLoop(
      writer: writer, subscribers: subscribers, channel: channel, rounds: Self.widthRounds,
      warmUp: Self.widthRounds / 10
    ) { cpuBefore = serverCPUSeconds() }
    guard let before = cpuBefore, let after = serverCPUSeconds(), !lasts.isEmpty else { return (.nan, subscribers) }
    return ((after - before) / Double(lasts.count) * 1e6, subscribers)
  }
}
