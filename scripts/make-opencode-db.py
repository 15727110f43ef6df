# Writes opencode databases for scripts/make-fixtures.ts with the real SQLite (Python's sqlite3): the tables of
# opencode's schema (anomalyco/opencode packages/opencode/src/session/session.sql.ts, project.sql.ts) filled with the
# rows the TypeScript side prepared. With "wal", the rows after "checkpoint_after" stay in the -wal file, as they do
# in a live opencode.db until SQLite checkpoints. Usage: python3 make-opencode-db.py spec.json
import json, os, shutil, sqlite3, sys

SCHEMA = """
CREATE TABLE `project` (`id` text PRIMARY KEY, `worktree` text NOT NULL, `vcs` text, `name` text,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL);
CREATE TABLE `session` (`id` text PRIMARY KEY, `project_id` text NOT NULL, `parent_id` text, `slug` text NOT NULL,
  `directory` text NOT NULL, `title` text NOT NULL, `version` text NOT NULL, `share_url` text,
  `summary_additions` integer, `summary_deletions` integer, `summary_files` integer, `summary_diffs` text,
  `revert` text, `permission` text, `time_created` integer NOT NULL, `time_updated` integer NOT NULL,
  `time_compacting` integer, `time_archived` integer);
CREATE TABLE `message` (`id` text PRIMARY KEY, `session_id` text NOT NULL, `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL, `data` text NOT NULL);
CREATE TABLE `part` (`id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);
CREATE INDEX `session_project_idx` ON `session` (`project_id`);
CREATE INDEX `session_parent_idx` ON `session` (`parent_id`);
CREATE INDEX `message_session_time_created_id_idx` ON `message` (`session_id`,`time_created`,`id`);
CREATE INDEX `part_message_id_id_idx` ON `part` (`message_id`,`id`);
CREATE INDEX `part_session_idx` ON `part` (`session_id`);
"""

def insert(con, table, rows):
    for r in rows:
        cols = list(r.keys())
        con.execute(f"INSERT INTO `{table}` ({','.join(cols)}) VALUES ({','.join('?' for _ in cols)})", [r[c] for c in cols])

spec = json.load(open(sys.argv[1]))
path = spec["path"]
for suffix in ("", "-wal", "-shm"):
    if os.path.exists(path + suffix):
        os.remove(path + suffix)
os.makedirs(os.path.dirname(path), exist_ok=True)
con = sqlite3.connect(path, isolation_level=None)
if spec.get("wal"):
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
con.executescript(SCHEMA)
batches = spec["batches"]
for i, b in enumerate(batches):
    con.execute("BEGIN")
    for table in ("project", "session", "message", "part"):
        insert(con, table, b.get(table, []))
    con.execute("COMMIT")
    if spec.get("wal") and i == 0:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
if spec.get("wal"):
    # Copy the pair while the connection is open: closing would checkpoint the WAL into the file.
    tmp = path + ".tmp"
    shutil.copy(path, tmp)
    shutil.copy(path + "-wal", tmp + "-wal")
    con.close()
    os.replace(tmp, path)
    os.replace(tmp + "-wal", path + "-wal")
    if os.path.exists(path + "-shm"):
        os.remove(path + "-shm")
else:
    con.execute("VACUUM")
    con.close()
print(f"wrote {path} ({os.path.getsize(path)} bytes)" + (f" + -wal ({os.path.getsize(path + '-wal')} bytes)" if spec.get("wal") else ""))
