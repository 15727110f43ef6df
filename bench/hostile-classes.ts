// Issue 29's attack classes run against a checkout: `tsx bench/hostile-classes.ts [repo] [--quick] [--only=…]` prints, per class,
// the inputs tried and how many passed, then each failure. `repo` (default: this one) is any checkout with the same
// public APIs — a copy of main gives the "before" column of the closing note. Inputs are generated here (secret kinds
// from test/share/secret-kinds.ts, logs from generate-hostile.ts); the large ones run in child processes, the
// engine under a 400 KB stack as a browser worker has. Not part of `npm run bench`.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { jsonl, toolCallLines } from '../test/helpers/claude-code-lines.ts';
import { ALNUM, noise } from '../test/helpers/noise.ts';
import { secretKinds } from '../test/share/secret-kinds.ts';
import { claudeCodeEveryBreak, claudeCodeToolCalls, sweAgentTrajectory } from './generate-hostile.ts';

const args = process.argv.slice(2);
const root = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const quick = args.includes('--quick');
/** `--only=a,b`: just those steps (guessing, coverage, quadratic, files, serve, huge, eval). */
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const step = (name: string) => !only || only.includes(name);
const tmp = mkdtempSync(join(tmpdir(), 'tierscope-classes-'));
const results: { cls: string; input: string; pass: boolean; why?: string }[] = [];
const record = (cls: string, input: string, pass: boolean, why?: string) => results.push({ cls, input, pass, why });

type Api = {
  redactTranscript: (t: unknown, o?: Record<string, unknown>) => { transcript: unknown };
  parseTranscript: (
    main: unknown,
    extra?: unknown[],
    o?: unknown,
  ) => { ok: boolean; transcript?: Record<string, unknown>; error?: string };
  fileFromText: (name: string, text: string) => unknown;
  exportBundle: (t: unknown) => string;
  runCli: (argv: string[], io: { out: (s: string) => void; err: (s: string) => void }) => Promise<number>;
  pathSpans: (s: string) => unknown[];
  findSecrets: (s: string) => unknown[];
};

async function api(): Promise<Api> {
  const m = async (p: string) => import(join(root, p));
  return {
    ...(await m('src/share/redact.ts')),
    ...(await m('src/formats/index.ts')),
    ...(await m('src/formats/tierscope.ts')),
    ...(await m('src/cli/main.ts')),
    ...(await m('src/share/paths.ts')),
    ...(await m('src/share/secrets.ts')),
  };
}

const textOf = (v: unknown, out: string[] = []): string[] => {
  if (typeof v === 'string') out.push(v);
  else if (typeof v === 'number') out.push(String(v));
  else if (Array.isArray(v)) for (const x of v) textOf(x, out);
  else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      textOf(x, out);
    }
  return out;
};

function session(input: Record<string, unknown>, tool = 'mcp__bank__pay'): string {
  return jsonl(...toolCallLines({ input, name: tool }));
}

/** Redaction, guessing back: each planted value fills differently in two shares and its filler is not what filling
 *  the same text again gives (the issue's dictionary oracle), and is not shipped. */
function guessing(a: Api): void {
  const values: [string, unknown][] = [
    ...Array.from(
      { length: quick ? 5 : 30 },
      (_, i) => [`pin ${1000 + i * 277}`, String(1000 + i * 277)] as [string, unknown],
    ),
    ...['hunter2', 'password1', 'letmein', 'qwerty123', 'dragon', 'monkey', 'iloveyou', 'trustno1'].map(
      (p) => [`password ${p}`, p] as [string, unknown],
    ),
    ...['alice', 'Jane Doe', 'Mohammed', 'Yuki'].map((n) => [`name ${n}`, n] as [string, unknown]),
    ...[4111111111111111, 737, 1234, 5500005555555559].map((n) => [`number ${n}`, n] as [string, unknown]),
    ['key "Jane Q. Doe, SSN 078-05-1120"', 'KEY:Jane Q. Doe, SSN 078-05-1120'],
    ['key "4111111111111111"', 'KEY:4111111111111111'],
  ];
  for (const [name, v] of values) {
    const input = typeof v === 'string' && v.startsWith('KEY:') ? { [v.slice(4)]: 'x' } : { secret: v };
    const t = a.parseTranscript(a.fileFromText('s.jsonl', session(input)));
    if (!t.ok) {
      record('redaction: guessing back', name, false, t.error);
      continue;
    }
    const fill = () => JSON.stringify(a.redactTranscript(t.transcript).transcript);
    const [x, y] = [fill(), fill()];
    const shipped = String(typeof v === 'string' && v.startsWith('KEY:') ? v.slice(4) : v);
    const leaked = textOf(JSON.parse(x)).some((s) => s.includes(shipped));
    record(
      'redaction: guessing back',
      name,
      x !== y && !leaked,
      leaked ? 'value shipped' : x === y ? 'same filler twice' : undefined,
    );
  }
}

/** Redaction, coverage: the 34 secret kinds in every field kind a share keeps. */
function coverage(a: Api): void {
  const kinds = secretKinds(29);
  const fields: [string, (v: string) => Record<string, unknown>][] = [
    ['path', (v) => ({ file_path: `/home/me/${v}/notes.md` })],
    ['tool name', () => ({ command: 'ls' })],
    ['id', () => ({ command: 'ls' })],
  ];
  for (const k of kinds) {
    for (const [field, input] of fields) {
      const tool = field === 'tool name' ? `mcp__srv__${k.value}` : 'Bash';
      let text = session(input(k.value), tool);
      if (field === 'id') text = text.replaceAll('toolu_1', `call_${k.value.replace(/[\n"\\]/g, '')}`);
      const t = a.parseTranscript(a.fileFromText('s.jsonl', text));
      if (!t.ok) {
        record('redaction: kept fields', `${k.kind} in ${field}`, false, t.error);
        continue;
      }
      const red = a.redactTranscript(t.transcript).transcript;
      record('redaction: kept fields', `${k.kind} in ${field}`, !textOf(red).some((s) => s.includes(k.body)));
    }
    // meta.skipped key and a schema enum, through a bundle.
    const t = a.parseTranscript(a.fileFromText('s.jsonl', session({ command: 'ls' })));
    if (t.ok && t.transcript) {
      const tr = t.transcript as { meta: Record<string, unknown>; threads: { prefix: Record<string, unknown> }[] };
      tr.meta.skipped = { [k.value]: 1 };
      tr.threads[0].prefix = {
        tools: [{ name: 'Bash', inputSchema: { type: 'object', properties: { m: { enum: [k.value] } } } }],
      };
      const red = a.redactTranscript(tr).transcript;
      record(
        'redaction: kept fields',
        `${k.kind} in meta.skipped key / schema enum`,
        !textOf(red).some((s) => s.includes(k.body)),
      );
    }
  }
}

/** One raw request to a server; its status (0: no answer). */
function rawStatus(port: number, text: string): Promise<number> {
  return new Promise((ok) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    s.on('data', (c) => {
      got += c.toString('latin1');
    });
    const done = () => ok(Number(/^HTTP\/1\.[01] (\d{3})/.exec(got)?.[1] ?? 0));
    s.on('error', done);
    s.on('close', done);
    s.setTimeout(20_000, () => s.destroy());
    s.write(text);
  });
}

/** serve: malformed requests, a file gone or unreadable; each answered with a status, the server alive after. */
async function serve(): Promise<void> {
  const dir = join(tmp, 'serve');
  mkdirSync(join(dir, 'root', 'p'), { recursive: true });
  mkdirSync(join(dir, 'app'), { recursive: true });
  writeFileSync(join(dir, 'app', 'index.html'), '<!doctype html>');
  writeFileSync(join(dir, 'root', 'p', 'ok.jsonl'), '{}\n');
  writeFileSync(join(dir, 'root', 'p', 'locked.jsonl'), 'x\n');
  chmodSync(join(dir, 'root', 'p', 'locked.jsonl'), 0);
  for (const d of [tmp, dir, join(dir, 'root'), join(dir, 'root', 'p'), join(dir, 'app')]) chmodSync(d, 0o755);
  const start = async () => {
    const p = spawn(
      process.execPath,
      [join(root, 'bin/tierscope.cjs'), 'serve', join(dir, 'root'), '--port', '0', '--app', join(dir, 'app')],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}),
      },
    );
    let out = '';
    const port = await new Promise<number>((ok) => {
      p.stdout?.on('data', (c) => {
        out += String(c);
        const m = /127\.0\.0\.1:(\d+)\//.exec(out);
        if (m) ok(Number(m[1]));
      });
      p.on('exit', () => ok(0));
    });
    return { p, port };
  };
  const host = (port: number) => `Host: 127.0.0.1:${port}\r\n`;
  const cases: [string, (port: number) => string][] = [
    ['GET http://%zz/ (our Host)', (port) => `GET http://%zz/ HTTP/1.1\r\n${host(port)}Connection: close\r\n\r\n`],
    ['GET http://%zz/ (any Host)', () => 'GET http://%zz/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['GET /%zz', (port) => `GET /%zz HTTP/1.1\r\n${host(port)}Connection: close\r\n\r\n`],
    [
      'GET /_folder/file/%E0%A4%A',
      (port) => `GET /_folder/file/%E0%A4%A HTTP/1.1\r\n${host(port)}Connection: close\r\n\r\n`,
    ],
    ['GET *', (port) => `GET * HTTP/1.1\r\n${host(port)}Connection: close\r\n\r\n`],
    ['GET //evil/x', (port) => `GET //evil.example/x HTTP/1.1\r\n${host(port)}Connection: close\r\n\r\n`],
    ['no Host', () => 'GET / HTTP/1.0\r\n\r\n'],
    ['garbage', () => '\u0000\u0001\u00ff \r\n\r\n'],
    ['no version', () => 'GET /\r\n\r\n'],
    ['control char in header', (port) => `GET / HTTP/1.1\r\n${host(port)}X-A: a\u0001b\r\n\r\n`],
    ['100 KB URL', (port) => `GET /${'a'.repeat(100_000)} HTTP/1.1\r\n${host(port)}\r\n`],
    ['unknown method', (port) => `BREW / HTTP/1.1\r\n${host(port)}Connection: close\r\n\r\n`],
    ['NUL in a path', (port) => `GET /_folder/file/p/ok.jsonl%00 HTTP/1.1\r\n${host(port)}Connection: close\r\n\r\n`],
    [
      'unreadable file (root-owned)',
      (port) => `GET /_folder/file/p/locked.jsonl HTTP/1.1\r\n${host(port)}Connection: close\r\n\r\n`,
    ],
    [
      'file gone between listing and read',
      (port) => `GET /_folder/file/p/gone.jsonl HTTP/1.1\r\n${host(port)}Connection: close\r\n\r\n`,
    ],
  ];
  let server = await start();
  for (const [name, text] of cases) {
    if (name.startsWith('file gone')) {
      writeFileSync(join(dir, 'root', 'p', 'gone.jsonl'), 'x');
      rmSync(join(dir, 'root', 'p', 'gone.jsonl'));
    }
    const status = await rawStatus(server.port, text(server.port));
    await new Promise((r) => setTimeout(r, 200));
    const alive =
      server.p.exitCode === null &&
      (await rawStatus(
        server.port,
        `GET /_folder/file/p/ok.jsonl HTTP/1.1\r\n${host(server.port)}Connection: close\r\n\r\n`,
      )) === 200;
    record('serve', name, status > 0 && alive, `status ${status}, ${alive ? 'alive' : 'dead'}`);
    if (!alive) {
      server.p.kill();
      server = await start();
    }
  }
  server.p.kill();
}

/** A child run of the engine on a generated file under a 400 KB stack (a browser worker's): did the run finish? */
function engineRun(file: string): { ok: boolean; why: string } {
  const script = join(tmp, 'engine-run.mts');
  writeFileSync(
    script,
    `import { readFileSync } from 'node:fs';
import { presetConfig } from ${JSON.stringify(join(root, 'src/pipeline/presets.ts'))};
import { createEngine } from ${JSON.stringify(join(root, 'worker/create-engine.ts'))};
const e = createEngine();
const s = await e.load([{ name: ${JSON.stringify(file.split('/').pop())}, blob: new Blob([readFileSync(${JSON.stringify(file)})]) }], undefined);
if (!s.ok) { console.log('LOAD', s.error); process.exit(0); }
try { await e.run(1, { preset: 'seeds', config: presetConfig('seeds'), mode: 'recorded', provider: 'anthropic', encoding: 'o200k_base' }); console.log('OK'); }
catch (err) { console.log('FAIL', String(err)); }
`,
  );
  const r = spawnSync(process.execPath, ['--stack-size=400', '--import', 'tsx', script], {
    encoding: 'utf8',
    cwd: root,
    timeout: 1_800_000,
  });
  const out = `${r.stdout}${r.stderr}`;
  return { ok: /\bOK\b/.test(out), why: out.split('\n').find((l) => /OK|FAIL|LOAD/.test(l)) ?? out.slice(-200) };
}

function huge(): void {
  const write = (name: string, gen: Iterable<string>, sep: string) => {
    const p = join(tmp, name);
    writeFileSync(p, `${[...gen].join(sep)}${sep}`);
    return p;
  };
  for (const [name, path] of [
    ['Claude Code, 70,000 tool calls', write('tools.jsonl', claudeCodeToolCalls(quick ? 7000 : 70_000), '\n')],
    ['SWE-agent .traj, 100,000 steps', write('steps.traj', sweAgentTrajectory(quick ? 10_000 : 100_000), '')],
  ] as const) {
    const r = engineRun(path);
    record('stack: big ordinary sessions', name, r.ok, r.why);
  }
}

/** Quadratic: reads of the analysis on an every-break log, 600 vs 1200 requests; hostile text scans. */
async function quadratic(a: Api): Promise<void> {
  const { analyze } = await import(join(root, 'src/analyses/analyze.ts'));
  const { presetConfig } = await import(join(root, 'src/pipeline/presets.ts'));
  const { createTokenizer } = await import(join(root, 'src/tokens/tokenizer.ts'));
  const tok = await createTokenizer('o200k_base');
  const work = (n: number) => {
    const t = a.parseTranscript(a.fileFromText('b.jsonl', `${[...claudeCodeEveryBreak(n)].join('\n')}\n`));
    let reads = 0;
    const watch = <T extends object>(xs: T) =>
      new Proxy(xs, {
        get(target, key, receiver) {
          if (typeof key === 'string' && key.length > 0 && key.charCodeAt(0) <= 57) reads++;
          return Reflect.get(target, key, receiver);
        },
      });
    for (const th of (t.transcript as { threads: { messages: object; requests: object }[] }).threads) {
      th.messages = watch(th.messages);
      th.requests = watch(th.requests);
    }
    analyze(t.transcript, {
      config: presetConfig('seeds'),
      preset: 'seeds',
      mode: 'recorded',
      provider: 'anthropic',
      tokenizer: tok,
    });
    return reads;
  };
  const ratio = work(1200) / work(600);
  record('quadratic', 'every request breaks the cache (reads at 2× the log)', ratio < 2.6, `×${ratio.toFixed(2)}`);
  for (const [name, f] of [
    ['secret scan, 200 KB run', () => a.findSecrets(noise(200_000, ALNUM))],
    ['path scan, 200 KB of base64', () => a.pathSpans(noise(200_000, `${ALNUM}+/`))],
  ] as const) {
    const t0 = performance.now();
    f();
    const s = (performance.now() - t0) / 1000;
    record('quadratic', name, s < 10, `${s.toFixed(1)} s`);
  }
}

async function cli(a: Api, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await a.runCli(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Decoders and odd-but-honest files through the CLI. */
async function files(a: Api): Promise<void> {
  const lines = [...claudeCodeToolCalls(20)];
  const jsonl = `${lines.join('\n')}\n`;
  const messages = async (path: string) => {
    const r = await cli(a, ['analyze', path, '--json']);
    return r.code === 0 ? (JSON.parse(r.out).counts.messages as number) : -1;
  };
  const want = await messages(
    (() => {
      const p = join(tmp, 'plain.jsonl');
      writeFileSync(p, jsonl);
      return p;
    })(),
  );
  const cases: [string, string, Buffer | string, (p: string) => Promise<boolean>][] = [
    [
      'decoders',
      'gzip with trailing junk',
      Buffer.concat([gzipSync(jsonl), Buffer.from('\u0001junk')]),
      async (p) => (await messages(p)) === want,
    ],
    [
      'decoders',
      'small gzip with trailing junk',
      Buffer.concat([gzipSync(`${lines[0]}\n`), Buffer.from('\u00de\u00ad')]),
      async (p) => (await messages(p)) === 1,
    ],
    [
      'parsers',
      'small session with NUL padding',
      Buffer.concat([Buffer.from(`${lines.slice(0, 4).join('\n')}\n`), Buffer.alloc(3000)]),
      async (p) => (await messages(p)) > 0,
    ],
    ['parsers', 'CR-only line endings', `${lines.join('\r')}\r`, async (p) => (await messages(p)) === want],
    [
      'parsers',
      'usage counts written as strings',
      jsonl.replace('"input_tokens":3', '"input_tokens":"3"'),
      async (p) => (await cli(a, ['analyze', p, '--json'])).out.includes('written as text'),
    ],
    [
      'parsers',
      'a line typed "assistant "',
      jsonl.replace('"type":"assistant"', '"type":"assistant "'),
      async (p) => (await cli(a, ['analyze', p, '--json'])).out.includes('is not \\"assistant\\"'),
    ],
  ];
  for (const [cls, name, bytes, check] of cases) {
    const p = join(tmp, `${name.replace(/\W+/g, '-')}.jsonl${name.includes('gzip') ? '.gz' : ''}`);
    writeFileSync(p, bytes);
    record(cls, name, await check(p).catch(() => false));
  }
  // CSV: a model named like a formula.
  const scanDir = join(tmp, 'scan', 'p');
  mkdirSync(scanDir, { recursive: true });
  writeFileSync(join(scanDir, 's.jsonl'), jsonl.replaceAll('claude-sonnet-4-5-20250929', "=2+3+cmd|' /C calc'!A0"));
  const csv = await cli(a, ['scan', join(tmp, 'scan'), '--csv']);
  record('data out', 'scan --csv, a formula model name', !/(^|,)=2\+3/m.test(csv.out));
  // A gzip bomb: one line, no usage text.
  const bomb = join(tmp, 'bomb.jsonl.gz');
  writeFileSync(bomb, gzipSync(Buffer.alloc(16 << 20, 0x61)));
  const { openInput } = await import(join(root, 'src/cli/node-input.ts'));
  const opened = await openInput(bomb, () => (async function* () {})(), 4 << 20);
  record(
    'decoders',
    'gzip bomb past the limit',
    typeof opened === 'string' && /decompresses to more than/.test(opened),
  );
  const missing = await cli(a, ['analyze', join(tmp, 'nope.jsonl')]);
  record('data out', 'unusable input: one line, no usage text', missing.err.split('\n').length === 1);
}

/** The .eval bomb in the CLI: peak RSS and the size message. */
function evalBomb(bomb: string | undefined): void {
  if (!bomb) return;
  const r = spawnSync(
    '/usr/bin/time',
    ['-f', 'RSS %M', process.execPath, join(root, 'bin/tierscope.cjs'), 'analyze', bomb],
    {
      encoding: 'utf8',
      timeout: 600_000,
    },
  );
  const kb = Number(/RSS (\d+)/.exec(r.stderr)?.[1] ?? 0);
  const said = /decompresses to over/.test(`${r.stdout}${r.stderr}`);
  record(
    'decoders',
    '.eval whose sample inflates to 2 GiB',
    said && kb < 1.5 * 1024 * 1024,
    `${(kb / 1024 / 1024).toFixed(2)} GB`,
  );
}

const a = await api();
if (step('guessing')) guessing(a);
if (step('coverage')) coverage(a);
if (step('quadratic')) await quadratic(a);
if (step('files')) await files(a);
if (step('serve')) await serve();
if (!quick && step('huge')) huge();
if (step('eval')) evalBomb(args.find((x) => x.startsWith('--eval-bomb='))?.slice('--eval-bomb='.length));
rmSync(tmp, { recursive: true, force: true });

const classes = [...new Set(results.map((r) => r.cls))];
console.log(`| attack class | inputs tried | passed | failed |\n|---|---|---|---|`);
for (const c of classes) {
  const rs = results.filter((r) => r.cls === c);
  const passed = rs.filter((r) => r.pass).length;
  console.log(`| ${c} | ${rs.length} | ${passed} | ${rs.length - passed} |`);
}
for (const r of results.filter((x) => !x.pass)) console.log(`FAIL ${r.cls}: ${r.input}${r.why ? ` (${r.why})` : ''}`);
process.exit(0);
