import Testing
import Varlink

@Suite("An interface's name from its IDL (Varlink: `interface NAME` after comments)")
struct InterfaceDescriptionTests {
  @Test(
    "the first `interface` line names it, after comments and blank lines, indented or not",
    arguments: [
      ("interface io.navd\n", "io.navd"),
      ("# A comment\n\n# interface not.this\n  interface io.navd \nmethod A() -> ()\n", "io.navd"),
      ("\tinterface org.example.more\r\ntype T ()", "org.example.more"),
      ("# no newline at the end\ninterface a.b", "a.b"),
      ("interface first.one\ninterface second.one\n", "first.one"),
    ])
  func named(idl: String, name: String) {
    let description = InterfaceDescription(idl: idl)
    #expect(description?.name == name)
    #expect(description?.text == idl, "the text is kept verbatim")
  }

  @Test(
    "no `interface` line, or one with no name, is no description",
    arguments: ["", "# only a comment\n", "interface \n", "interfaces io.navd\n", "method A() -> ()\n"])
  func unnamed(idl: String) {
    #expect(InterfaceDescription(idl: idl) == nil)
  }

  @Test("org.varlink.service's own IDL names it")
  func varlinkService() {
    #expect(InterfaceDescription(idl: InterfaceDescription.varlinkService.text)?.name == "org.varlink.service")
  }
}
