import NavEngine
import NavServer

/// navd's scenes run on its event loop: a call read there enters its scene synchronously.
extension EventLoopExecutor: SceneExecutor {}
