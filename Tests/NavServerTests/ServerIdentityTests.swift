import NavModel
import NavService
import NavWire
import Testing
import Varlink

@testable import NavServer

/// The generic Varlink server knows nothing of io.navd (issue #13, "One vocabulary in
/// the code"): GetInfo's strings and the refusal a turned-away connection reads come
/// from the service at construction.
@Suite("Server identity: the service names itself and its refusal")
struct ServerIdentityTests {
  @Test("a generic server says nothing of navd and refuses with org.varlink.service.PermissionDenied")
  func genericServer() throws {
    let configuration = ServerConfiguration(socketPath: "/nonexistent/s.sock")
    #expect(configuration.vendor == "")
    #expect(configuration.version == "")
    let frame = configuration.refusal(ConnectionRefusal(limit: "connections", max: 1, value: 2, message: "full"))
    let reply = try JSONParser.parse(frame.dropLast())
    #expect(reply["error"] == .string(VarlinkServiceNames.permissionDenied))
    #expect(reply["parameters"] == ["message": "full"])
  }

  @Test("§2 turned away: serveNavd answers io.navd.LimitExceeded with limit, field, max, value and message")
  func navdServer() throws {
    var configuration = ServerConfiguration(socketPath: "/nonexistent/s.sock")
    configuration.serveNavd()
    #expect(configuration.vendor == "navd")
    #expect(configuration.version == NavdRelease.version)
    let frame = configuration.refusal(ConnectionRefusal(limit: "connections", max: 1, value: 2, message: "full"))
    #expect(frame.last == 0)
    let reply = try JSONParser.parse(frame.dropLast())
    #expect(reply["error"] == "io.navd.LimitExceeded")
    #expect(
      reply["parameters"] == [
        "limit": "connections", "field": "connections", "max": 1, "value": "2", "message": "full",
      ])
  }
}
