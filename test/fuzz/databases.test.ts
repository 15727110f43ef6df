// Fuzzed SQLite databases (issue 31): an opencode.db and its -wal file truncated at any byte, or with bytes set
// anywhere (headers, b-tree pages, WAL frames), load without a parser exception — a transcript with what could be
// read, or one clear error — and never change the bytes they were given.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeSqlite } from '../../src/cli/sqlite-node.ts';
import { fileFromBytes, parseTranscript } from '../../src/formats/index.ts';
import type { SqliteOpener } from '../../src/formats/sqlite.ts';
import { agentFixture } from '../helpers/agent-fixtures.ts';

let sqlite: SqliteOpener;
beforeAll(async () => {
  sqlite = await nodeSqlite();
});

const DB = readFileSync(agentFixture('opencode/wal/opencode.db'));
const WAL = readFileSync(agentFixture('opencode/wal/opencode.db-wal'));

function loads(db: Uint8Array, wal?: Uint8Array): void {
  const dbBefore = db.slice();
  const walBefore = wal?.slice();
  const r = parseTranscript(fileFromBytes('opencode.db', db), wal ? [fileFromBytes('opencode.db-wal', wal)] : [], {
    sqlite,
  });
  if (r.ok) {
    expect(r.transcript.format).toBe('opencode');
    for (const i of r.transcript.parseIssues) expect(typeof i.line).toBe('number');
  } else {
    expect(r.error).not.toMatch(/parser failed/);
    expect(r.error.length).toBeGreaterThan(10);
  }
  expect(Buffer.from(db).equals(Buffer.from(dbBefore))).toBe(true);
  if (wal && walBefore) expect(Buffer.from(wal).equals(Buffer.from(walBefore))).toBe(true);
}

const setBytes = (bytes: Uint8Array, ops: { at: number; value: number }[]) => {
  const out = bytes.slice();
  for (const o of ops) out[o.at % out.length] = o.value;
  return out;
};

describe('fuzzed opencode databases', () => {
  it('truncated at any byte (the database, or its -wal file)', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        loads(DB.subarray(0, a % DB.length), WAL);
        loads(DB, WAL.subarray(0, b % WAL.length));
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('bytes set anywhere in the database or its -wal file', () => {
    const op = fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 8 }), fc.array(op, { maxLength: 4 }), (dbOps, walOps) => {
        loads(setBytes(DB, dbOps), setBytes(WAL, walOps));
      }),
      { numRuns: 16 },
    );
  }, 120_000);
});
