import NavModel
import Varlink

/// Answers `org.varlink.service` calls (GetInfo, GetInterfaceDescription) without
/// leaving the event loop: both are pure lookups.
struct VarlinkServiceResponder: Sendable {
  let vendor: String
  let product: String
  let version: String
  let url: String
  /// org.varlink.service first, then the served interfaces in the order given.
  let interfaces: [InterfaceDescription]

  init(configuration: ServerConfiguration, served: [InterfaceDescription]) {
    vendor = configuration.vendor
    product = configuration.product
    version = configuration.version
    url = configuration.url
    interfaces = [.varlinkService] + served.filter { $0.name != InterfaceDescription.varlinkService.name }
  }

  /// Whether `name` is an interface this server has (org.varlink.service included).
  func serves(_ name: String) -> Bool { interfaces.contains { $0.name == name } }

  /// The reply frame for an `org.varlink.service` call.
  func respond(to call: VarlinkCall) -> [UInt8] {
    switch call.method {
    case VarlinkServiceNames.getInfo:
      if let unknown = call.parameters.keys.sorted().first { return invalidParameter(unknown) }
      let info: JSONValue = [
        "vendor": .string(vendor), "product": .string(product), "version": .string(version),
        "url": .string(url), "interfaces": .array(interfaces.map { .string($0.name) }),
      ]
      return VarlinkReply.encoded(parameters: info)

    case VarlinkServiceNames.getInterfaceDescription:
      if let unknown = call.parameters.keys.sorted().first(where: { $0 != "interface" }) {
        return invalidParameter(unknown)
      }
      guard case .string(let name) = call.parameters["interface"] else { return invalidParameter("interface") }
      guard let interface = interfaces.first(where: { $0.name == name }) else {
        return VarlinkReply.encoded(
          parameters: ["interface": .string(name)], error: VarlinkServiceNames.interfaceNotFound)
      }
      return VarlinkReply.encoded(parameters: ["description": .string(interface.text)])

    default:
      return VarlinkReply.encoded(
        parameters: ["method": .string(call.method)], error: VarlinkServiceNames.methodNotFound)
    }
  }

  private func invalidParameter(_ name: String) -> [UInt8] {
    InvalidParameter(parameter: name).replyFrame
  }
}
