import NavEngine
import NavModel

extension StoredScene {
  /// Refuses a stored snapshot that breaks a rule no mutation may break
  /// (`SceneState.validated`): only an older navd's file, an old offline import or a hand edit
  /// can hold one, and serving it would hand every subscriber a state navd could not have made.
  ///
  /// navd does not start on it (STORAGE.md §4, "A stored scene that breaks a rule"): leaving
  /// the scene out would serve a later write to its name as a new, empty scene over the
  /// stored one. The error names the database, the scene, the field and the rule, and the
  /// recovery: the export keeps the scene as stored, and the import checks the correction.
  func checkRules(databasePath path: String) throws(StoreError) {
    do throws(NavError) {
      _ = try snapshot.validated()
    } catch {
      let stateDir = StateDirectory.containing(path)
      let field = error.field ?? "the state"
      throw StoreError(
        .corrupt,
        "\(path): the stored snapshot of scene \"\(name)\" (version \(snapshotVersion)) breaks a rule: "
          + "\(error.message). navd will not start on a scene no mutation could have made. To recover: "
          + "'navctl export --state-dir \(stateDir) > navd-backup.json' (it exports the scene as stored), "
          + "correct \(field) of scene \"\(name)\" in navd-backup.json, then 'navctl import --state-dir "
          + "\(stateDir) navd-backup.json' (it checks every rule again) and start navd")
    }
  }
}
