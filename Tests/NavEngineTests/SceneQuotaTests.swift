import NavModel
import Testing

@testable import NavEngine

/// Per-uid scene quotas (PROTOCOL.md §10 "Per-user limits"): each uid's share of
/// `maxScenes`, and the reserve left to exempt users (root, navd's own uid).
@Suite struct SceneQuotaTests {
  private static let alice = SceneRequester(uid: 1001, exempt: false)
  private static let bob = SceneRequester(uid: 1002, exempt: false)
  private static let root = SceneRequester(uid: 0, exempt: true)

  private func engine(maxScenes: Int, perUser: Int) -> Engine {
    var configuration = EngineConfiguration()
    configuration.maxScenes = maxScenes
    configuration.maxScenesPerUser = perUser
    return Engine(configuration: configuration, store: InMemorySceneStore())
  }

  private func create(
    _ engine: Engine, _ scene: String, by requester: SceneRequester, button: String = "b"
  ) async -> NavError? {
    await engine.mutate(scene: scene, Sample.request([Sample.button(button)]), requester: requester).failureValue
  }

  @Test("The reserve is a sixteenth of the limit, at least one once others may create any")
  func reservedShare() {
    #expect(SceneRequester.reservedShare(of: 1024) == 64)
    #expect(SceneRequester.reservedShare(of: 20) == 1)
    #expect(SceneRequester.reservedShare(of: 2) == 1)
    #expect(SceneRequester.reservedShare(of: 1) == 0)
  }

  @Test(
    "A uid's share: its next creation is refused (scenesPerUser), another uid's is not, and a refused one leaves nothing"
  )
  func perUserShare() async {
    let engine = engine(maxScenes: 100, perUser: 2)
    #expect(await create(engine, "a1", by: Self.alice) == nil)
    #expect(await create(engine, "a2", by: Self.alice) == nil)
    let refused = await create(engine, "a3", by: Self.alice)
    #expect(refused?.code == .limitExceeded)
    #expect(refused?.limit == "scenesPerUser")
    #expect(refused?.max == 2)
    #expect(await create(engine, "a1", by: Self.alice, button: "c") == nil, "its own scenes take mutations")
    #expect(await create(engine, "b1", by: Self.bob) == nil)
    #expect(engine.sceneNames == ["a1", "a2", "b1", "main"])
  }

  @Test("Others stop before the reserve; root takes it and then meets maxScenes")
  func reserveForRoot() async {
    // 17 scenes, reserve 1: main + 15 of others = 16 = 17 - 1.
    let engine = engine(maxScenes: 17, perUser: 100)
    for k in 0..<15 { #expect(await create(engine, "a\(k)", by: Self.alice) == nil) }
    let reserved = await create(engine, "b0", by: Self.bob)
    #expect(reserved?.limit == "maxScenes")
    #expect(reserved?.message.contains("reserved for root") == true)
    #expect(await create(engine, "r0", by: Self.root) == nil)
    #expect(await create(engine, "r1", by: Self.root)?.limit == "maxScenes")
  }
}
