import Foundation
import Testing

@testable import NavStore

#if canImport(Glibc)
  import Glibc
#endif

// Serialized: each test looks at this process's navd-redo threads.
@Suite("The redo applier's nice value, and a warning when it cannot be set (STORAGE.md §2)", .serialized)
struct ApplierPriorityTests {
  /// The nice values of this process's threads named `name`, from /proc/self/task/*/stat.
  static func nice(ofThreads name: String) -> [Int] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    var values: [Int] = []
    for task in tasks {
      let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
      guard comm.trimmingCharacters(in: .newlines) == name,
        let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
        let end = stat.lastIndex(of: ")")
      else { continue }
      // After "pid (comm) ": state is field 3, nice field 19.
      let fields = stat[stat.index(after: end)...].split(separator: " ")
      if let nice = Int(fields[16]) { values.append(nice) }
    }
    return values
  }

  @Test("navd-redo runs at nice 10 and the store reports no problem")
  func lowered() throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal, redoLimits: RedoLogLimits())
    defer { store.close() }
    #expect(store.applierPriorityProblem == nil)
    // Other suites' stores may run their own appliers meanwhile: every one is at nice 10.
    let values = Self.nice(ofThreads: "navd-redo")
    #expect(!values.isEmpty && values.allSatisfy { $0 == 10 }, "navd-redo threads at nice \(values)")
  }

  @Test("a denied setpriority (EPERM, as a seccomp filter answers) is reported with its cost and the fix")
  func denied() throws {
    let directory = TemporaryDirectory()
    var limits = RedoLogLimits()
    limits.lowerPriority = { EPERM }
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal, redoLimits: limits)
    defer { store.close() }
    let problem = try #require(store.applierPriorityProblem)
    #expect(problem.contains("could not lower its priority to nice 10: setpriority failed: Operation not permitted"))
    #expect(problem.contains("competes with the loop for the CPU"))
    #expect(problem.contains("SystemCallFilter=setpriority"))
    let other = TemporaryDirectory()
    let full = try SQLiteSceneStore(path: other.database, durability: .full)
    defer { full.close() }
    #expect(full.applierPriorityProblem == nil)
  }
}
