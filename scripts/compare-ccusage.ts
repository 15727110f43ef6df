// Recorded dollars and billed tokens per Claude Code session beside ccusage's and an independent count from the raw
// lines (test/helpers/independent-cost.ts), as a markdown table. `npm run -s compare-ccusage` copies the Claude Code
// fixtures (../shared/fixtures/{real,wild,wild2} and the repo's own) into a CLAUDE_CONFIG_DIR under the system temp folder (never into
// the repo; ccusage does not follow symlinked folders), runs `npx ccusage@20.0.24 session --json --offline`
// there (needs the npm registry once), and adds up ccusage's sessions of each of our sessions (2.0 sibling
// `agent-*.jsonl` files are sessions of their own to ccusage). Codex rollouts are compared with their
// token_count totals. Exit 1 when a difference is over 1%.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { billedTokens } from '../src/analyses/figures.ts';
import { recordedCost } from '../src/analyses/recorded-cost.ts';
import { companionFiles, fileFromPath } from '../src/cli/node-input.ts';
import { parseTranscript } from '../src/formats/index.ts';
import { fixtureInputs, REAL_DIR, REPO_FIXTURES_DIR, WILD_DIR, WILD2_DIR } from '../test/helpers/fixture-inputs.ts';
import { claudeCodeDollars, codexDollars, sessionTexts } from '../test/helpers/independent-cost.ts';

const CCUSAGE = 'ccusage@20.0.24';

/** A CLAUDE_CONFIG_DIR with every Claude Code fixture folder copied under `projects/`. */
function configDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tierscope-ccusage-'));
  const projects = join(dir, 'projects');
  mkdirSync(projects);
  const real = join(REAL_DIR, 'claude-code');
  cpSync(real, join(projects, 'real-claude-code'), { recursive: true });
  const wild = join(WILD_DIR, 'claude-code/projects');
  for (const p of readdirSync(wild)) cpSync(join(wild, p), join(projects, p), { recursive: true });
  const wild2 = join(WILD2_DIR, 'claude-code');
  for (const p of readdirSync(wild2)) cpSync(join(wild2, p), join(projects, `wild2-${p}`), { recursive: true });
  for (const kind of readdirSync(REPO_FIXTURES_DIR).filter((k) => k.startsWith('claude-code'))) {
    const root = join(REPO_FIXTURES_DIR, kind, 'projects');
    for (const p of readdirSync(root)) cpSync(join(root, p), join(projects, `${kind}-${p}`), { recursive: true });
  }
  return dir;
}

type CcSession = { totalCost: number; totalTokens: number };

function ccusageSessions(dir: string): Map<string, CcSession> {
  const out = execFileSync('npx', ['-y', CCUSAGE, 'session', '--json', '--offline'], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: dir },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const sessions = (JSON.parse(out) as { session: ({ period: string } & CcSession)[] }).session;
  return new Map(sessions.map((s) => [s.period, s]));
}

/** ccusage's session ids that hold one of our sessions: the file's, and its same-session sibling agent files. */
function ccusageIds(path: string): string[] {
  const id = basename(path, '.jsonl');
  const texts = sessionTexts(path);
  const sid = /"sessionId":"([^"]+)"/.exec(texts[0])?.[1];
  const siblings = id.startsWith('agent-')
    ? []
    : readdirSync(dirname(path)).filter((f) => f.startsWith('agent-') && f.endsWith('.jsonl'));
  const mine = companionFiles(path)
    .filter((c) => siblings.includes(c.name))
    .filter((c) => /"sessionId":"([^"]+)"/.exec(new TextDecoder().decode(Buffer.concat([...c.chunks()])))?.[1] === sid)
    .map((c) => basename(c.name, '.jsonl'));
  return [id, ...mine];
}

const usd = (x: number | null) => (x === null ? '—' : `$${x.toFixed(4)}`);
/** Signed relative difference in percent, three decimals (−0.000 shown as 0.000). */
function pct(a: number, b: number | null): string {
  if (b === null) return '—';
  const d = a === b ? 0 : ((a - b) / Math.max(Math.abs(a), Math.abs(b))) * 100;
  const s = d.toFixed(3);
  return `${s === '-0.000' ? '0.000' : s}%`;
}

const dir = configDir();
let worst = 0;
try {
  const cc = ccusageSessions(dir);
  console.log(
    '| file | responses | Tierscope recorded | independent | ccusage 20.0.24 | vs independent | vs ccusage | rewound (in recorded) | billed tokens | ccusage tokens |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const f of fixtureInputs()) {
    if (f.format !== 'claude-code' && f.format !== 'codex') continue;
    const r = parseTranscript(fileFromPath(f.path), companionFiles(f.path));
    if (!r.ok) throw new Error(`${f.rel}: ${r.error}`);
    const ours = recordedCost(r.transcript, {}).totals;
    const theirs = f.format === 'codex' ? codexDollars(f.path) : claudeCodeDollars(f.path);
    const ids = f.format === 'codex' ? [] : ccusageIds(f.path).filter((id) => cc.has(id));
    const ccu = ids.length > 0 ? ids.reduce((s, id) => s + (cc.get(id)?.totalCost ?? 0), 0) : null;
    const ccTokens = ids.length > 0 ? ids.reduce((s, id) => s + (cc.get(id)?.totalTokens ?? 0), 0) : null;
    const billed = billedTokens(r.transcript)?.total ?? 0;
    if (ccTokens !== null && ccTokens !== billed)
      worst = Math.max(worst, Math.abs(billed - ccTokens) / Math.max(billed, ccTokens));
    const mine = ours?.usd ?? 0;
    for (const other of [theirs.usd, ccu])
      if (other !== null && mine !== other) worst = Math.max(worst, Math.abs(mine - other) / Math.max(mine, other));
    const label = f.format === 'codex' ? `${f.rel} (vs token_count totals)` : f.rel;
    console.log(
      `| ${label} | ${ours?.priced ?? 0} | ${usd(mine)} | ${usd(theirs.usd)} | ${f.format === 'codex' ? 'n/a' : usd(ccu)} | ${pct(mine, theirs.usd)} | ${pct(mine, ccu)} | ${usd(ours?.abandonedUsd ?? 0)} | ${billed} | ${ccTokens ?? '—'} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\nlargest difference: ${(worst * 100).toFixed(3)}%`);
process.exit(worst > 0.01 ? 1 : 0);
