/// A Varlink interface the server serves: its name and its IDL text, which
/// `org.varlink.service.GetInterfaceDescription` returns verbatim (comments included).
public struct InterfaceDescription: Sendable, Hashable {
  /// Reverse-domain name, e.g. `org.varlink.service`.
  public var name: String
  /// The IDL text.
  public var text: String

  /// Creates a description with an explicit name.
  public init(name: String, text: String) {
    self.name = name
    self.text = text
  }

  /// Takes the name from the IDL's `interface NAME` line; nil if there is none.
  ///
  /// Reads the bytes line by line (a CRLF ends a line too) up to that line only: splitting
  /// navd's whole IDL into lines first cost every start ~3 million instructions, a fifth of
  /// navd's start-up (callgrind).
  public init?(idl text: String) {
    let keyword = Array("interface ".utf8)
    let bytes = text.utf8
    var lineStart = bytes.startIndex
    while lineStart < bytes.endIndex {
      let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
      let line = bytes[lineStart..<lineEnd].drop(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
      if line.starts(with: keyword) {
        let name = line.dropFirst(keyword.count).reversed().drop(while: Self.isTrailingSpace).reversed()
        guard !name.isEmpty else { return nil }
        self.init(name: String(decoding: name, as: UTF8.self), text: text)
        return
      }
      lineStart = lineEnd == bytes.endIndex ? lineEnd : bytes.index(after: lineEnd)
    }
    return nil
  }

  private static func isTrailingSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }

  /// The standard `org.varlink.service` interface, as published by varlink.org.
  public static let varlinkService = InterfaceDescription(
    name: VarlinkServiceNames.interface,
    text: """
      # The Varlink Service Interface is provided by every varlink service. It
      # describes the service and the interfaces it implements.
      interface org.varlink.service

      # Get a list of all the interfaces a service provides and information
      # about the implementation.
      method GetInfo() -> (
        vendor: string,
        product: string,
        version: string,
        url: string,
        interfaces: []string
      )

      # Get the description of an interface that is implemented by this service.
      method GetInterfaceDescription(interface: string) -> (description: string)

      # The requested interface was not found.
      error InterfaceNotFound (interface: string)

      # The requested method was not found
      error MethodNotFound (method: string)

      # The interface defines the requested method, but the service does not
      # implement it.
      error MethodNotImplemented (method: string)

      # One of the passed parameters is invalid.
      error InvalidParameter (parameter: string)

      # Client is denied access
      error PermissionDenied ()

      # Method is expected to be called with 'more' set to true, but wasn't
      error ExpectedMore ()

      """)
}
