import NavModel
import Testing

@testable import NavEngine

@Suite("OpLog ring buffer")
struct OpLogTests {
  /// Version v pushes screen "v<v>", so the state at v is the stack v1…vv.
  static func state(_ version: UInt64) -> SceneState {
    var state = SceneState.empty
    state.navigationBar.items = (0..<version).map { NavigationItem(id: "v\($0 + 1)") }
    return state
  }

  static func entry(_ version: UInt64) -> LogEntry {
    LogEntry(
      version: version, client: "c", mutationId: nil, ops: [.push(NavigationItem(id: "v\(version)"), animated: false)],
      accesses: FieldAccesses(), stack: state(version).navigationBar.items.map(\.id), events: [], animated: false)
  }

  static func log(capacity: Int, through newest: UInt64) -> OpLog {
    var log = OpLog(capacity: capacity, limits: .default, version: 0, state: state(0))
    for version in stride(from: 1, through: newest, by: 1) { log.append(entry(version)) }
    return log
  }

  @Test("A full log keeps the newest versions and folds the oldest into the floor")
  func wrapsAround() {
    let log = Self.log(capacity: 4, through: 10)
    #expect(log.count == 4)
    #expect(log.floorVersion == 6)
    #expect(log.floorState == Self.state(6))
    #expect(log.last?.version == 10)
    #expect(!log.holds(5))
    #expect((6...10).allSatisfy(log.holds))
    for version: UInt64 in 6...10 {
      #expect(log.state(at: version) == Self.state(version))
      #expect(log.stack(at: version) == Self.state(version).navigationBar.items.map(\.id))
    }
    #expect(log.entries(after: 7).map(\.version) == [8, 9, 10])
    #expect(log.entries(after: 10).isEmpty)
  }

  @Test("Truncating after a failed group keeps the older entries in order")
  func truncateInsideTheLog() {
    var log = Self.log(capacity: 4, through: 10)
    log.truncate(after: 8, state: Self.state(8))
    #expect(log.last?.version == 8)
    #expect(log.entries(after: 6).map(\.version) == [7, 8])
    log.append(Self.entry(9))
    #expect(log.entries(after: 6).map(\.version) == [7, 8, 9])
    #expect(log.state(at: 9) == Self.state(9))
  }

  @Test("Truncating past the floor restarts the log at the surviving version")
  func truncateBelowTheFloor() {
    var log = Self.log(capacity: 4, through: 10)
    log.truncate(after: 3, state: Self.state(3))
    #expect(log.count == 0)
    #expect(log.floorVersion == 3)
    #expect(log.state(at: 3) == Self.state(3))
    #expect(!log.holds(4))
  }
}
