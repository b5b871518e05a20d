import NavEngine

extension StoreWriter {
  /// Gives every stored scene a new epoch, keeping its state, version, log and remembered
  /// mutation ids (one transaction): what a start does when it cannot prove it kept every
  /// acknowledged version (STORAGE.md §4, "New epochs"). Versions go on from what was kept,
  /// and the new epoch tells a client that a version it knew may now mean another state.
  /// Returns each scene with its old and new epoch.
  func startNewEpochs() throws(StoreError) -> [(scene: String, from: String, to: String)] {
    let select = try database.prepare("SELECT name, epoch FROM scenes ORDER BY name")
    var scenes: [(scene: String, from: String, to: String)] = []
    while try select.step() {
      scenes.append((select.text(0) ?? "", select.text(1) ?? "", SceneEngine.newEpoch()))
    }
    guard !scenes.isEmpty else { return [] }
    let update = try database.prepare("UPDATE scenes SET epoch = ?2 WHERE name = ?1")
    try database.execute("BEGIN IMMEDIATE")
    do throws(StoreError) {
      for scene in scenes { try update.run(.text(scene.scene), .text(scene.to)) }
      try database.execute("COMMIT")
    } catch {
      if database.inTransaction { try? database.execute("ROLLBACK") }
      throw error
    }
    forgetStoredEpochs()
    return scenes
  }
}
