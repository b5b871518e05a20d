import Foundation
import NavModel
import Testing
import Varlink

@testable import NavClient

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Socket path, backoff, error text")
struct SupportTypesTests {
  @Test("the default socket path follows navd's rules")
  func defaultSocketPath() {
    #expect(
      NavClient.defaultSocketPath(environment: ["NAVD_SOCKET": "/x/n.sock", "XDG_RUNTIME_DIR": "/r"]) == "/x/n.sock")
    #expect(
      NavClient.defaultSocketPath(environment: ["NAVD_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/1"])
        == "/run/user/1/navd/navd.sock")
    #expect(NavClient.defaultSocketPath(environment: [:]) == "/run/navd/navd.sock")
  }

  @Test("a relative socket path is made absolute against the working directory")
  func relativeSocketPath() {
    let directory = FileManager.default.currentDirectoryPath
    #expect(NavClient(socketPath: "./here/navd.sock").socketPath == directory + "/here/navd.sock")
    #expect(NavClient(socketPath: "/abs/navd.sock").socketPath == "/abs/navd.sock")
  }

  @Test("a client without a clientId gets a random one of its own")
  func clientIds() {
    let a = NavClient(socketPath: "/nowhere")
    let b = NavClient(socketPath: "/nowhere")
    #expect(a.clientId.count == 32 && a.clientId != b.clientId)
    #expect(NavClient(socketPath: "/nowhere", clientId: "me").clientId == "me")
  }

  @Test("backoff doubles from 50 ms to 2 s, jittered into the upper half, and resets")
  func backoff() {
    var backoff = Backoff(.standard)
    var generator = SystemRandomNumberGenerator()
    var ceilings: [Duration] = []
    for _ in 0..<8 {
      let delay = backoff.next(using: &generator)
      ceilings.append(delay)
    }
    let expected: [Duration] = [50, 100, 200, 400, 800, 1600, 2000, 2000].map { .milliseconds($0) }
    for (delay, ceiling) in zip(ceilings, expected) { #expect(delay <= ceiling && delay >= ceiling / 2) }
    backoff.reset()
    #expect(backoff.next(using: &generator) <= .milliseconds(50))
  }

  @Test("error descriptions say what happened")
  func descriptions() {
    let unreachable = NavClientError.unreachable("/run/x.sock", errno: ECONNREFUSED)
    #expect(unreachable.description.hasPrefix("cannot connect to navd at /run/x.sock: "))
    // EACCES: the whole sentence is SocketPermission's (tested in NavSystemTests), naming the socket.
    let denied = NavClientError.unreachable("/nonexistent/navd.sock", errno: EACCES)
    #expect(denied.description.hasPrefix("permission denied connecting to /nonexistent/navd.sock"))
    #expect(!denied.description.contains("start navd"))
    #expect(NavClientError.timedOut.description == "navd did not answer in time")
    #expect(
      NavClientError.remote(name: "org.varlink.service.InvalidParameter", parameters: ["parameter": "width"])
        .description == #"org.varlink.service.InvalidParameter {"parameter":"width"}"#)
    #expect(NavClientError.disconnected.description.contains("closed before the reply"))
  }
}
