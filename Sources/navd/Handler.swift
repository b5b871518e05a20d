import NavAccess
import NavEngine
import NavServer
import NavService

// The wiring between the server and the io.navd implementation.

/// The io.navd interface navd serves, with its IDL for GetInterfaceDescription.
func makeInterfaces() -> [InterfaceDescription] {
  [InterfaceDescription(idl: navdInterfaceDefinition)!]
}

/// The io.navd service over a fresh engine (state lives as long as the process
/// until the durable store lands).
func makeService(_ arguments: Arguments, access: AccessControl) -> NavdService {
  var configuration = EngineConfiguration()
  if let value = arguments.subscriberQueueBytes { configuration.subscriberQueueBytes = value }
  if let value = arguments.opLogVersions { configuration.opLogCapacity = value }
  if let value = arguments.maxScenes { configuration.maxScenes = value }
  return NavdService(engine: Engine(configuration: configuration), access: access)
}
