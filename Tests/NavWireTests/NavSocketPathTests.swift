import NavWire
import Testing

@Suite("Default socket path")
struct NavSocketPathTests {
  @Test("$NAVD_SOCKET wins")
  func explicit() {
    let path = NavSocketPath.defaultPath(environment: ["NAVD_SOCKET": "/tmp/x.sock", "XDG_RUNTIME_DIR": "/run/user/1"])
    #expect(path == NavSocketPath(path: "/tmp/x.sock", origin: .environment))
  }

  @Test("then $XDG_RUNTIME_DIR/navd/navd.sock, creating the navd directory")
  func runtimeDirectory() {
    let path = NavSocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
    #expect(
      path
        == NavSocketPath(
          path: "/run/user/1000/navd/navd.sock", directoryToCreate: "/run/user/1000/navd", origin: .runtimeDirectory))
  }

  @Test("else the system service's /run/navd/navd.sock, never a path relative to the working directory")
  func fallback() {
    let system = NavSocketPath(
      path: "/run/navd/navd.sock", directoryToCreate: "/run/navd", directoryMode: 0o755, origin: .system)
    #expect(NavSocketPath.defaultPath(environment: [:]) == system)
    #expect(NavSocketPath.defaultPath(environment: ["NAVD_SOCKET": ""]) == system)
    // XDG: a relative XDG_RUNTIME_DIR is invalid and ignored.
    #expect(NavSocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "run"]) == system)
  }
}
