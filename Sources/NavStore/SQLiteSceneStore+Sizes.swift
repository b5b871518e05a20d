import Glibc
import NavEngine

extension SQLiteSceneStore {
  /// The files' sizes now (`stat`): the redo log's, and the database with its WAL and index.
  /// A file that is not there counts nothing.
  public var sizes: StoreSizes {
    let redo = ((try? RedoLogFiles(databasePath: path).list()) ?? []).reduce(0) { $0 + Self.size(of: $1) }
    let database = [path, path + "-wal", path + "-shm"].reduce(0) { $0 + Self.size(of: $1) }
    return StoreSizes(redoBytes: redo, databaseBytes: database)
  }

  private static func size(of path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
  }
}
