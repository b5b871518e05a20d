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

  static func entry(_ version: UInt64, bytes: Int = 100) -> LogEntry {
    LogEntry(
      version: version, client: "c", mutationId: nil, ops: [.push(NavigationItem(id: "v\(version)"), animated: false)],
      accesses: FieldAccesses(), stack: state(version).navigationBar.items.map(\.id), events: [], animated: false,
      opsBytes: bytes)
  }

  static func log(capacity: Int, byteLimit: Int = .max, through newest: UInt64) -> OpLog {
    var log = OpLog(capacity: capacity, byteLimit: byteLimit, version: 0, state: state(0))
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

  @Test("Limits: the op log is bounded in bytes as well as versions (opLogBytes)")
  func boundedInBytes() {
    // 10 versions of 100 bytes under a 350-byte bound: the newest three fit.
    let log = Self.log(capacity: 1024, byteLimit: 350, through: 10)
    #expect(log.count == 3)
    #expect(log.bytes == 300)
    #expect(log.floorVersion == 7)
    #expect(log.floorState == Self.state(7))
    #expect(log.state(at: 10) == Self.state(10))
    #expect(!log.holds(6))
  }

  @Test("Limits: an entry larger than opLogBytes is still kept as the newest")
  func oversizedEntryKept() {
    var log = Self.log(capacity: 1024, byteLimit: 350, through: 3)
    log.append(Self.entry(4, bytes: 10_000))
    #expect(log.count == 1)
    #expect(log.last?.version == 4)
    #expect(log.floorVersion == 3)
    #expect(log.stack(at: 3) == Self.state(3).navigationBar.items.map(\.id))
    log.append(Self.entry(5))
    #expect(log.count == 1, "the oversized entry is folded as soon as a newer one exists")
    #expect(log.bytes == 100)
    #expect(log.state(at: 5) == Self.state(5))
  }

  @Test("Folding many entries frees their slots and keeps every held version exact")
  func longRun() {
    let log = Self.log(capacity: 5, through: 60)
    #expect(log.count == 5)
    #expect(log.floorVersion == 55)
    #expect(log.entries(after: 55).map(\.version) == [56, 57, 58, 59, 60])
    #expect(log.state(at: 58) == Self.state(58))
  }
}
