-- A navd database as schema version 1 wrote it (scenes and their log; no remembered
-- mutation ids, no digest column). NavStoreTests builds the fixture from this script
-- and opens it with the current navd. Never edit: it stands for files already on disks.
PRAGMA user_version = 1;
CREATE TABLE scenes (
  name TEXT PRIMARY KEY NOT NULL,
  epoch TEXT NOT NULL,
  snapshot_version INTEGER NOT NULL,
  snapshot TEXT NOT NULL
);
CREATE TABLE log (
  scene TEXT NOT NULL,
  version INTEGER NOT NULL,
  client TEXT NOT NULL,
  mutation_id TEXT,
  ops TEXT NOT NULL,
  PRIMARY KEY (scene, version)
);
INSERT INTO scenes VALUES ('main', '00000000000000e1', 1,
  '{"navigationBar":{"items":[{"id":"inbox","title":"Inbox"}]},"toolbar":{"items":[]}}');
INSERT INTO log VALUES ('main', 2, 'mail', 'm-2', '[{"op":"push","item":{"id":"message","title":"Hello"}}]');
INSERT INTO log VALUES ('main', 3, 'mail', NULL, '[{"op":"updateNavigationItem","item":"message","set":{"prompt":"Draft"}}]');
INSERT INTO scenes VALUES ('side', '00000000000000e2', 0, '{"navigationBar":{},"toolbar":{}}');
