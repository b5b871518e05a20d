import NavModel
import Testing
import Varlink

@Suite("The Varlink IDL: parser and validator (varlink.org \"Interface Definition\")")
struct VarlinkIDLTests {
  @Test("The IDL validator refuses an undeclared field, a missing one and a wrong type, naming the path")
  func validatorRefuses() throws {
    let idl = try VarlinkIDL(
      parsing: "interface org.example\ntype P (x: int, tags: ?[]string)\nmethod M(p: P, e: ?(a, b)) -> ()\n")
    let input = try #require(idl.methods["M"]).input
    try idl.validate(["p": ["x": 1, "tags": ["t"]], "e": "a"], fields: input)
    #expect(throws: VarlinkIDLError(description: "p.y: not declared")) {
      try idl.validate(["p": ["x": 1, "y": 2]], fields: input)
    }
    #expect(throws: VarlinkIDLError(description: "p.x: missing, but int is not optional")) {
      try idl.validate(["p": [:]], fields: input)
    }
    #expect(throws: VarlinkIDLError(description: "p.x: number is not int")) {
      try idl.validate(["p": ["x": 1.5]], fields: input)
    }
    #expect(throws: VarlinkIDLError(description: "e: string is not (a, b)")) {
      try idl.validate(["p": ["x": 1], "e": "c"], fields: input)
    }
    #expect(throws: VarlinkIDLError(description: "line 2: expected '->'")) {
      try VarlinkIDL(parsing: "interface a.b\nmethod M() (x: int)")
    }
  }

  @Test("org.varlink.service's own IDL parses, and declares the methods and errors the server names")
  func varlinkService() throws {
    let idl = try VarlinkIDL(parsing: InterfaceDescription.varlinkService.text)
    #expect(idl.name == VarlinkServiceNames.interface)
    let qualified = { (name: String) in "\(idl.name).\(name)" }
    #expect(
      Set(idl.methods.keys.map(qualified)) == [
        VarlinkServiceNames.getInfo, VarlinkServiceNames.getInterfaceDescription,
      ])
    let errors: Set<String> = [
      VarlinkServiceNames.interfaceNotFound, VarlinkServiceNames.methodNotFound,
      VarlinkServiceNames.methodNotImplemented, VarlinkServiceNames.invalidParameter,
      VarlinkServiceNames.permissionDenied, VarlinkServiceNames.expectedMore,
    ]
    #expect(Set(idl.errors.keys.map(qualified)) == errors)
    try idl.validate(MethodNotFound(method: "a.B").errorParameters, fields: try #require(idl.errors["MethodNotFound"]))
    try idl.validate(
      InvalidParameter(parameter: "p").errorParameters, fields: try #require(idl.errors["InvalidParameter"]))
  }
}
