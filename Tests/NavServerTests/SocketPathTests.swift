import CNavSys
import Foundation
import Testing

@testable import NavServer

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Socket path preparation", .serialized)
struct SocketPathTests {
  func tempDirectory() -> String {
    var template = Array("/tmp/navd-path-XXXXXX".utf8CString)
    return String(cString: mkdtemp(&template)!)
  }

  @Test("a live server on the path is refused; a stale socket file is replaced")
  func liveAndStale() throws {
    let server = try TestServer()
    #expect(throws: SocketPath.PreparationError.self) { try SocketPath.prepare(server.path) }
    // A socket file nobody listens on: bind without listen, then close.
    let directory = tempDirectory()
    let stale = directory + "/stale.sock"
    let fd = cnav_unix_stream_socket(0)
    #expect(cnav_bind_unix(fd, stale) == 0)
    close(fd)
    #expect(access(stale, F_OK) == 0)
    try SocketPath.prepare(stale)
    #expect(access(stale, F_OK) != 0)
    server.stop()
    rmdir(directory)
  }

  @Test("a regular file is not replaced; a missing directory is created 0700; the socket is 0600")
  func filesAndModes() throws {
    let directory = tempDirectory()
    let file = directory + "/file"
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    #expect(throws: SocketPath.PreparationError.self) { try SocketPath.prepare(file) }
    unlink(file)

    let nested = directory + "/navd"
    try SocketPath.prepare(nested + "/navd.sock", creatingDirectory: nested)
    var info = stat()
    #expect(stat(nested, &info) == 0 && info.st_mode & 0o777 == 0o700)
    let fd = try SocketPath.bindListener(path: nested + "/navd.sock", mode: 0o600)
    #expect(stat(nested + "/navd.sock", &info) == 0 && info.st_mode & 0o777 == 0o600)
    close(fd)
    unlink(nested + "/navd.sock")
    rmdir(nested)
    rmdir(directory)
  }
}
