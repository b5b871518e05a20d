import NavWire
import Testing

@Suite("Default socket path")
struct NavSocketPathTests {
  @Test("$NAVD_SOCKET wins")
  func explicit() {
    let path = NavSocketPath.defaultPath(environment: ["NAVD_SOCKET": "/tmp/x.sock", "XDG_RUNTIME_DIR": "/run/user/1"])
    #expect(path == NavSocketPath(path: "/tmp/x.sock"))
  }

  @Test("then $XDG_RUNTIME_DIR/navd/navd.sock, creating the navd directory")
  func runtimeDirectory() {
    let path = NavSocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
    #expect(path == NavSocketPath(path: "/run/user/1000/navd/navd.sock", directoryToCreate: "/run/user/1000/navd"))
  }

  @Test("else ./.navd/navd.sock")
  func fallback() {
    #expect(NavSocketPath.defaultPath(environment: [:]).path == "./.navd/navd.sock")
    #expect(NavSocketPath.defaultPath(environment: ["NAVD_SOCKET": ""]).path == "./.navd/navd.sock")
  }
}
