import Foundation
import Testing

@testable import NavStore

/// STORAGE.md §4 "Disk space": `--disk-budget` sets the budget of navd's own working files;
/// without it the budget is sized to the state directory's file system.
@Suite("The disk budget: configured, or sized to the file system (STORAGE §4)")
struct DiskBudgetSettingTests {
  @Test("STORAGE §4 a configured budget is used as given; its reserve file is a sixteenth of it")
  func configured() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal, diskBudgetBytes: 2 << 20)
    #expect(store.diskBudget.bytes == 2 << 20)
    let reserve = try FileManager.default.attributesOfItem(
      atPath: StateDirectory.containing(directory.database) + "/" + DiskReserve.fileName)
    #expect((reserve[.size] as? Int) == (2 << 20) / 16, "navd.reserve holds the budget's sixteenth")
    await closeOffPool(store)
  }

  @Test("STORAGE §4 without a setting: 32 MiB, or a quarter of the file system when that is smaller")
  func automatic() async throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteSceneStore(path: directory.database, durability: .normal)
    #expect(store.diskBudget == DiskBudget.forFileSystem(of: StateDirectory.containing(directory.database)))
    #expect(store.diskBudget.bytes <= DiskBudget.defaultBytes)
    await closeOffPool(store)
  }

  @Test("STORAGE §4 a budget below 1 MiB is raised to it (the configuration refuses one with an error)")
  func minimum() {
    #expect(DiskBudget.resolved(explicit: 4096, directory: "/").bytes == DiskBudget.minimumBytes)
    #expect(DiskBudget.minimumBytes == 1 << 20)
  }
}
