import Foundation
import NavModel
import NavWire
import Testing
import Varlink

/// Protocol/io.navd.varlink against the Swift message types (issue 28 "The IDL checks the Swift
/// types"): every call, reply, frame and error navd's types encode validates against the IDL's
/// fields (name, type, optionality), every IDL field is one the types send, a call without a
/// field the IDL requires is refused, and each method and error exists on both sides.
@Suite("Protocol/io.navd.varlink against the Swift types")
struct ProtocolIDLTests {
  static let idl: VarlinkIDL = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let text = try! String(contentsOf: root.appendingPathComponent("Protocol/io.navd.varlink"), encoding: .utf8)
    return try! VarlinkIDL(parsing: text)
  }()

  @Test("PROTOCOL §3: the IDL declares exactly navd's methods")
  func methods() {
    #expect(Set(Self.idl.methods.keys) == Set(NavMethod.allCases.map(\.rawValue)))
    #expect(Self.idl.name == NavProtocol.interface)
  }

  @Test(
    "PROTOCOL §3: each call's parameters match the IDL, and together name every input field",
    arguments: NavMethod.allCases)
  func calls(_ method: NavMethod) throws {
    let fields = try #require(Self.idl.methods[method.rawValue]).input
    var sent: Set<String> = []
    for call in ProtocolIDLSamples.calls(method) {
      #expect(type(of: call).method == method)
      try Self.idl.validate(call.parameters, fields: fields, path: method.rawValue)
      sent.formUnion(call.parameters.objectValue?.keys ?? [:].keys)
    }
    #expect(sent == Set(fields.map(\.name)))
  }

  @Test("PROTOCOL §3: a call without a field the IDL requires is refused", arguments: NavMethod.allCases)
  func requiredInputs(_ method: NavMethod) throws {
    let fields = try #require(Self.idl.methods[method.rawValue]).input
    let full = try #require(ProtocolIDLSamples.calls(method).last?.parameters.objectValue)
    for field in fields where !field.type.isOptional {
      var parameters = full
      parameters[field.name] = nil
      #expect(throws: CallError.self, "\(method).\(field.name)") {
        _ = try method.descriptor.call.init(parameters: .object(parameters))
      }
    }
  }

  @Test(
    "PROTOCOL §3: each reply and frame matches the IDL, and together they name every output field",
    arguments: NavMethod.allCases)
  func replies(_ method: NavMethod) throws {
    let fields = try #require(Self.idl.methods[method.rawValue]).output
    var sent: Set<String> = []
    for reply in try ProtocolIDLSamples.replies(method) {
      try Self.idl.validate(reply.parameters, fields: fields, path: method.rawValue)
      var bytes: [UInt8] = []
      reply.encodeParameters(into: &bytes)
      let written = try JSONParser.parse(String(decoding: bytes, as: UTF8.self))
      #expect(written == reply.parameters, "\(method): the fast writer and the value differ")
      sent.formUnion(reply.parameters.objectValue?.keys ?? [:].keys)
    }
    #expect(sent == Set(fields.map(\.name)))
  }

  @Test("PROTOCOL §5: each io.navd error navd builds matches the IDL, and every error's fields are sent")
  func errors() throws {
    var sent: [String: Set<String>] = [:]
    for (name, parameters) in ProtocolIDLSamples.errors {
      let short = String(name.dropFirst(NavProtocol.interface.count + 1))
      let fields = try #require(Self.idl.errors[short], "\(name) is not in the IDL")
      try Self.idl.validate(parameters, fields: fields, path: name)
      sent[short, default: []].formUnion(parameters.objectValue?.keys ?? [:].keys)
    }
    for (short, fields) in Self.idl.errors {
      #expect(sent[short] == Set(fields.map(\.name)), "\(short)")
    }
    #expect(Set(NavErrorName.allCases.map(\.rawValue)).isSubset(of: Set(Self.idl.errors.keys.map { "io.navd.\($0)" })))
  }
}
