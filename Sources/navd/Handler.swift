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
func makeService() -> NavdService {
  NavdService(engine: Engine())
}
