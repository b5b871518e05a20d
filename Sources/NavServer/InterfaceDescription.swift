import NavWire

/// A Varlink interface the server serves: its name and its IDL text, which
/// `org.varlink.service.GetInterfaceDescription` returns verbatim (comments included).
public struct InterfaceDescription: Sendable, Hashable {
  /// Reverse-domain name, e.g. `io.navd`.
  public var name: String
  /// The IDL text.
  public var text: String

  /// Creates a description with an explicit name.
  public init(name: String, text: String) {
    self.name = name
    self.text = text
  }

  /// Takes the name from the IDL's `interface NAME` line; nil if there is none.
  public init?(idl text: String) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
      guard trimmed.hasPrefix("interface ") else { continue }
      let name = trimmed.dropFirst("interface ".count).trimmingWhitespace()
      guard !name.isEmpty else { return nil }
      self.init(name: String(name), text: text)
      return
    }
    return nil
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

extension Substring {
  fileprivate func trimmingWhitespace() -> Substring {
    var result = self
    while let last = result.last, last == " " || last == "\t" || last == "\r" { result.removeLast() }
    return result
  }
}
