import Dispatch
import NavEngine
import NavModel
import NavServer
import NavWire

/// `Import` (PROTOCOL.md §3): a scene's state document arrives in pieces, one call each, on
/// one connection (`ImportStaging`); the last piece's call parses it, checks it against every
/// rule a mutation is held to (`SceneState.validated`) and replaces the scene in a new epoch,
/// durably, before it answers. A refused document changes nothing.
extension NavdService {
  func importScene(_ call: ImportCall, _ context: any CallContext) throws(CallError) {
    let added = try importStaging.add(call, connection: context.connectionID)
    guard let document = added.document else {
      context.reply(ImportReply(received: added.received))
      return
    }
    let engine = engine
    let staging = importStaging
    let requester = requester(context)
    run {
      let checked = await Self.checkedOffLoop(document, limits: engine.configuration.limits)
      staging.checked(document)
      let state: SceneState
      switch checked {
      case .success(let checkedState): state = checkedState
      case .failure(let error):
        context.fail(error)
        return
      }
      switch await engine.importScene(
        document.scene, state: state, version: document.version, requester: requester)
      {
      case .success(let imported):
        context.reply(
          ImportReply(
            received: added.received, epoch: imported.epoch, version: imported.version, created: imported.created))
      case .failure(let error): context.fail(error)
      }
    }
  }

  /// `importedState` on a thread of Dispatch's, not the loop's nor the cooperative pool's: a
  /// document of up to `importSceneBytes` is parsed and checked while the loop serves everyone.
  private static func checkedOffLoop(_ document: ImportStaging.Staged, limits: ModelLimits) async
    -> Result<SceneState, NavError>
  {
    await withCheckedContinuation { done in
      importChecks.async {
        do throws(NavError) {
          done.resume(returning: .success(try importedState(document, limits: limits)))
        } catch {
          done.resume(returning: .failure(error))
        }
      }
    }
  }

  /// Where whole documents are checked, one at a time (they count toward `importTotalBytes`
  /// until they are).
  private static let importChecks = DispatchQueue(label: "navd-import")

  /// The document's state, checked; a refusal names the scene, the path into the document
  /// (under `state`) and the rule.
  private static func importedState(_ document: ImportStaging.Staged, limits: ModelLimits) throws(NavError)
    -> SceneState
  {
    func named(_ error: NavError) -> NavError {
      var error = error
      error.message = "scene \"\(document.scene)\": \(error.message); nothing changed"
      return error
    }
    let json: JSONValue
    do {
      json = try JSONParser.parse(document.text)
    } catch {
      throw named(NavError(.invalidMutation, "the state document is not JSON: \(error)", field: "state"))
    }
    do throws(NavError) {
      return try SceneState(json: json, path: "state").validated(limits: limits, path: "state")
    } catch {
      throw named(error)
    }
  }
}
