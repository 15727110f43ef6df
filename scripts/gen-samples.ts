// Generates the bundled samples in public/samples/ and their manifest index.json (run `npm run samples`).
// Deterministic: fixed clocks, ids from counters, no randomness. Everything is written from scratch here
// (never copied from fixtures/real). Usage numbers follow how the Anthropic API reports them: the prompt is
// the static prefix plus the history (o200k counts × 1.11, the ratio measured on real logs), a warm cache
// reads the previous prompt of the same model within the TTL, and the rest is written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileFromText, parseTranscript } from '../src/formats/index.ts';
import { exportBundle } from '../src/formats/tierscope.ts';
import type { SampleEntry } from '../src/protocol/samples.ts';
import { createTokenizer, type Tokenizer } from '../src/tokens/tokenizer.ts';
import { goTestRace, sessionGo, sessionTestGo, tokenGo, uploadTs } from './sample-content.ts';

/** Output folder (SAMPLES_OUT lets a test regenerate elsewhere and compare). */
const OUT = process.env.SAMPLES_OUT ?? 'public/samples';
const RATIO = 1.11;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Blocks = { [k: string]: Json }[];

/** Deterministic pseudo-random hex from a counter (FNV-1a over the seed text). */
function hex(seed: string, n: number): string {
  let out = '';
  let h = 0x811c9dc5;
  for (let round = 0; out.length < n; round++) {
    for (const ch of `${seed}:${round}`) {
      h ^= ch.charCodeAt(0);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, n);
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function b58(seed: string, n: number): string {
  const h = hex(seed, n * 2);
  let s = '';
  for (let i = 0; i < n; i++) s += B58[Number.parseInt(h.slice(i * 2, i * 2 + 2), 16) % B58.length];
  return s;
}

function uuid(seed: string): string {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type ThreadState = { parent: string | null; prompt: number; history: number; lastEnd: number; model: string };

/**
 * A Claude Code (1.0.x) session JSONL writer: user lines, assistant responses split one line per content
 * block (same message.id and requestId, like the real CLI), inline sidechains, and usage per response.
 */
class ClaudeCodeSession {
  lines: string[] = [];
  clock: number;
  private n = 0;
  private threads = new Map<string, ThreadState>();
  /** Time of the last response per model (any thread): the shared system+tools prefix stays warm. */
  private warm = new Map<string, number>();

  constructor(
    private readonly tok: Tokenizer,
    private readonly o: { sessionId: string; cwd: string; version: string; start: string; prefix: number },
  ) {
    this.clock = Date.parse(o.start);
  }

  private id(kind: string): string {
    return uuid(`${this.o.sessionId}:${kind}:${this.n++}`);
  }

  private thread(name: string, model: string): ThreadState {
    let t = this.threads.get(name);
    if (!t) {
      t = { parent: null, prompt: 0, history: 0, lastEnd: Number.NEGATIVE_INFINITY, model };
      this.threads.set(name, t);
    }
    return t;
  }

  private base(thread: string, extra: { [k: string]: Json }): { [k: string]: Json } {
    const t = this.thread(thread, '');
    const uid = this.id('line');
    const line: { [k: string]: Json } = {
      parentUuid: t.parent,
      isSidechain: thread !== 'main',
      userType: 'external',
      cwd: this.o.cwd,
      sessionId: this.o.sessionId,
      version: this.o.version,
      gitBranch: 'main',
      ...extra,
      uuid: uid,
      timestamp: new Date(this.clock).toISOString(),
    };
    t.parent = uid;
    return line;
  }

  private count(v: Json): number {
    return Math.round(this.tok.count(typeof v === 'string' ? v : JSON.stringify(v)) * RATIO) + 4;
  }

  /** A user line (prompt text, tool results, or a meta/command line). */
  user(content: string | Blocks, o: { thread?: string; after?: number; meta?: boolean; toolUseResult?: Json } = {}) {
    const thread = o.thread ?? 'main';
    this.clock += (o.after ?? 2) * 1000;
    const extra: { [k: string]: Json } = { type: 'user', message: { role: 'user', content } };
    if (o.meta) extra.isMeta = true;
    if (o.toolUseResult !== undefined) extra.toolUseResult = o.toolUseResult;
    this.lines.push(JSON.stringify(this.base(thread, extra)));
    this.thread(thread, '').history += this.count(content);
  }

  /** One API response: usage computed from the history, one line per content block. */
  assistant(blocks: Blocks, o: { thread?: string; model: string; after?: number; output?: number; prefix?: number }) {
    const thread = o.thread ?? 'main';
    const t = this.thread(thread, o.model);
    this.clock += (o.after ?? 4) * 1000;
    const prefix = o.prefix ?? this.o.prefix;
    const prompt = prefix + t.history;
    const ttl = 300_000;
    const fresh = (at: number | undefined) => at !== undefined && this.clock - at <= ttl;
    let read = 0;
    if (t.prompt > 0 && t.model === o.model && fresh(t.lastEnd)) read = t.prompt;
    else if (fresh(this.warm.get(o.model))) read = Math.min(prompt, 11_412);
    const input = 3 + (t.history % 7);
    const write = Math.max(0, prompt - read - input);
    const msgId = `msg_01${b58(`${this.o.sessionId}:msg:${this.n}`, 22)}`;
    const requestId = `req_011C${b58(`${this.o.sessionId}:req:${this.n}`, 18)}`;
    const output = o.output ?? 40 + this.count(blocks);
    blocks.forEach((b, i) => {
      const usage: { [k: string]: Json } = {
        input_tokens: input,
        cache_creation_input_tokens: write,
        cache_read_input_tokens: read,
        cache_creation: { ephemeral_5m_input_tokens: write, ephemeral_1h_input_tokens: 0 },
        output_tokens: i === blocks.length - 1 ? output : Math.min(output, 8),
        service_tier: 'standard',
      };
      const message: { [k: string]: Json } = {
        id: msgId,
        type: 'message',
        role: 'assistant',
        model: o.model,
        content: [b],
        stop_reason: i === blocks.length - 1 ? (b.type === 'tool_use' ? 'tool_use' : 'end_turn') : null,
        stop_sequence: null,
        usage,
      };
      if (i > 0) this.clock += 600;
      this.lines.push(JSON.stringify(this.base(thread, { message, requestId, type: 'assistant' })));
    });
    t.prompt = prompt;
    t.model = o.model;
    t.lastEnd = this.clock;
    t.history += this.count(blocks);
    this.warm.set(o.model, this.clock);
  }

  toolId(): string {
    return `toolu_01${b58(`${this.o.sessionId}:tool:${this.n++}`, 22)}`;
  }

  /** An assistant tool call (with an optional lead-in text) answered by one result line. */
  call(
    name: string,
    input: { [k: string]: Json },
    result: string,
    o: { model: string; text?: string; thread?: string; think?: number; run?: number; isError?: boolean },
  ): string {
    const id = this.toolId();
    const blocks: Blocks = [];
    if (o.text) blocks.push({ type: 'text', text: o.text });
    blocks.push({ type: 'tool_use', id, name, input });
    this.assistant(blocks, { model: o.model, thread: o.thread, after: o.think });
    const tr: { [k: string]: Json } = { tool_use_id: id, type: 'tool_result', content: result };
    if (o.isError) tr.is_error = true;
    this.user([tr], { thread: o.thread, after: o.run ?? 1 });
    return id;
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

/** `cat -n` style numbering as Claude Code's Read tool returns it. */
function numbered(src: string, from = 1): string {
  return src
    .split('\n')
    .map((l, i) => `${String(i + from).padStart(6, ' ')}\t${l}`)
    .join('\n');
}

function editResult(path: string, snippet: string, at: number): string {
  return `The file ${path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numbered(snippet, at)}`;
}

// ---------------------------------------------------------------------------------------------------------
// (a) story-37-1: a Go refactoring session (SPEC §4 tiers, seeds chapter 37.1).

function story(tok: Tokenizer): string {
  const root = '/home/dev/src/tollgate';
  const s = new ClaudeCodeSession(tok, {
    sessionId: '3f7a9c1e-5b2d-4e8f-a1c3-37d1e0b5a9f2',
    cwd: root,
    version: '1.0.108',
    start: '2025-10-14T09:02:11.000Z',
    prefix: 14_870,
  });
  const model = 'claude-sonnet-4-5-20250929';
  const m = { model };
  const sg = `${root}/internal/auth/session.go`;
  const session = sessionGo();
  const lines = session.split('\n');
  const snippet = (a: number, b: number) => lines.slice(a - 1, b).join('\n');
  s.user(
    'Two concurrent requests that both find an expiring session can each rotate the refresh token, and the loser logs the user out. Make `Session.Refresh` in internal/auth/session.go safe under concurrency without changing the public API, and get `go test -race ./...` green.',
    { after: 0 },
  );
  s.call(
    'Bash',
    { command: 'ls -la internal/auth', description: 'List the auth package' },
    [
      'total 64',
      'drwxr-xr-x  2 dev dev  4096 Oct 14 08:51 .',
      'drwxr-xr-x 11 dev dev  4096 Oct 13 17:20 ..',
      '-rw-r--r--  1 dev dev  1318 Oct  2 11:04 doc.go',
      '-rw-r--r--  1 dev dev  2207 Oct  2 11:04 errors.go',
      '-rw-r--r--  1 dev dev 18214 Oct 13 17:20 session.go',
      '-rw-r--r--  1 dev dev  7391 Oct 13 17:20 session_test.go',
      '-rw-r--r--  1 dev dev  3920 Oct  9 15:42 store.go',
      '-rw-r--r--  1 dev dev  5876 Oct  9 15:42 token.go',
      '-rw-r--r--  1 dev dev  2950 Oct  9 15:42 token_test.go',
    ].join('\n'),
    { ...m, text: "I'll start by getting oriented in the auth package." },
  );
  s.call('Read', { file_path: sg }, numbered(session), m);
  const tokenCmd = {
    command: "sed -n '1,160p' internal/auth/token.go",
    description: 'Show the token rotation helpers',
  };
  s.call('Bash', tokenCmd, tokenGo(), {
    ...m,
    text: 'Refresh calls into the rotation helpers in token.go; let me look at them.',
  });
  s.call(
    'Grep',
    { pattern: 'RotateRefresh|rotateLocked', path: 'internal', output_mode: 'content', '-n': true },
    [
      'internal/auth/token.go:88:func (r *Rotator) RotateRefresh(ctx context.Context, old RefreshToken) (RefreshToken, error) {',
      'internal/auth/token.go:112:\tnext, err := r.rotateLocked(ctx, old)',
      'internal/auth/token.go:131:func (r *Rotator) rotateLocked(ctx context.Context, old RefreshToken) (RefreshToken, error) {',
      'internal/auth/session.go:203:\tnext, err := s.rotator.RotateRefresh(ctx, s.refresh)',
      'internal/auth/session.go:347:\t\tif _, err := s.rotator.RotateRefresh(ctx, tok); err != nil {',
      'internal/api/middleware.go:64:\t\t// RotateRefresh is called by Session.Refresh; never call it directly here.',
      'internal/auth/token_test.go:41:\tnext, err := r.RotateRefresh(ctx, first)',
    ].join('\n'),
    m,
  );
  s.call(
    'Bash',
    { command: 'go test -race ./internal/auth/...', description: 'Run the auth tests with -race' },
    goTestRace(0),
    {
      ...m,
      run: 9,
    },
  );
  s.call('Read', { file_path: `${root}/internal/auth/session_test.go` }, numbered(sessionTestGo()), m);
  const edits: [number, number, string][] = [
    [28, 44, 'Add a refresh mutex and an in-flight call to Session'],
    [196, 222, 'Hold the mutex across the expiry check and rotation'],
    [196, 230, 'Coalesce concurrent refreshes with singleflight'],
    [240, 262, 'Re-check expiry after acquiring the lock'],
    [196, 236, 'Use the rotated token returned by the in-flight call'],
    [100, 118, 'Return ErrRefreshInFlight to callers that time out waiting'],
  ];
  let edit = 0;
  const doEdit = (text?: string) => {
    const [a, b, why] = edits[edit++ % edits.length];
    s.call(
      'Edit',
      { file_path: sg, old_string: snippet(a, a + 3), new_string: `${snippet(a, a + 3)}\n\t// ${why.toLowerCase()}` },
      editResult(sg, snippet(a, b), a),
      { ...m, text: text ?? `${why}.` },
    );
  };
  const test = (args: string, run: number, text?: string) =>
    s.call('Bash', { command: `go test ${args}`, description: 'Run the tests' }, goTestRace(run), {
      ...m,
      text,
      run: 6 + (run % 5),
    });
  doEdit(
    'The race is clear: `Refresh` checks `expiresSoon()` and rotates without holding any lock. I will add a mutex first.',
  );
  test('-race -run TestRefreshConcurrent ./internal/auth/', 1);
  doEdit();
  test(
    '-race -run TestRefreshConcurrent ./internal/auth/',
    2,
    'The data race is gone, but both goroutines still rotate.',
  );
  s.call(
    'Grep',
    { pattern: 'func \\(s \\*Store\\) (Save|Rotate)', path: 'internal/auth', output_mode: 'content', '-n': true },
    'internal/auth/store.go:57:func (s *Store) Save(ctx context.Context, sess *Session) error {\ninternal/auth/store.go:91:func (s *Store) RotateFamily(ctx context.Context, family string) error {',
    m,
  );
  doEdit(
    'Two callers with separate *Session copies for the same family still race. Coalescing by family ID with singleflight fixes that.',
  );
  s.call(
    'Bash',
    { command: 'go build ./...', description: 'Build' },
    'internal/auth/session.go:14:2: no required module provides package golang.org/x/sync/singleflight; to add it:\n\tgo get golang.org/x/sync/singleflight',
    { ...m, isError: true },
  );
  s.call(
    'Bash',
    { command: 'go get golang.org/x/sync/singleflight', description: 'Add singleflight' },
    'go: downloading golang.org/x/sync v0.8.0\ngo: added golang.org/x/sync v0.8.0',
    m,
  );
  test('-race ./internal/auth/...', 3);
  doEdit();
  test(
    '-race -count=5 ./internal/auth/...',
    4,
    'Flaky: the expiry is read before the lock. Running it a few times to confirm.',
  );
  s.call(
    'Grep',
    { pattern: 'refreshLeeway', path: 'internal', output_mode: 'content', '-n': true },
    'internal/auth/session.go:31:const refreshLeeway = 90 * time.Second\ninternal/auth/session.go:188:\treturn time.Until(s.expiresAt) < refreshLeeway\ninternal/config/config.go:77:\t// refreshLeeway in internal/auth must stay below AccessTTL/2',
    m,
  );
  doEdit();
  test('-race ./internal/auth/...', 5);
  s.call('Bash', { command: 'go vet ./internal/auth/...', description: 'Vet' }, '', m);
  s.call(
    'Edit',
    {
      file_path: `${root}/internal/auth/session_test.go`,
      old_string: 'func TestRefreshConcurrent(t *testing.T) {',
      new_string: 'func TestRefreshConcurrentFamilies(t *testing.T) {',
    },
    editResult(`${root}/internal/auth/session_test.go`, sessionTestGo().split('\n').slice(120, 150).join('\n'), 121),
    { ...m, text: 'Adding a test with two sessions of one family.' },
  );
  test('-race -run TestRefresh -count=20 ./internal/auth/', 6);
  test('./...', 7, 'Now the whole module.');
  s.call(
    'Grep',
    { pattern: 'ErrSessionExpired', path: 'internal/api', output_mode: 'content', '-n': true },
    'internal/api/middleware.go:71:\t\tif errors.Is(err, auth.ErrSessionExpired) {\ninternal/api/middleware_test.go:118:\t\twantErr: auth.ErrSessionExpired,',
    m,
  );
  s.call(
    'Edit',
    {
      file_path: `${root}/internal/api/middleware.go`,
      old_string: 'if errors.Is(err, auth.ErrSessionExpired) {',
      new_string: 'if errors.Is(err, auth.ErrSessionExpired) || errors.Is(err, auth.ErrRefreshInFlight) {',
    },
    editResult(
      `${root}/internal/api/middleware.go`,
      '\t\tsess, err := h.sessions.Load(r.Context(), cookie.Value)\n\t\tif err == nil {\n\t\t\terr = sess.Refresh(r.Context())\n\t\t}\n\t\tif errors.Is(err, auth.ErrSessionExpired) || errors.Is(err, auth.ErrRefreshInFlight) {\n\t\t\thttp.Redirect(w, r, "/login", http.StatusSeeOther)\n\t\t\treturn\n\t\t}',
      67,
    ),
    m,
  );
  test('./internal/api/...', 8);
  s.call('Bash', tokenCmd, tokenGo(), {
    ...m,
    text: 'The middleware now depends on how RotateRefresh reports a reused token. I need the rotation helper again to check which error it returns.',
  });
  doEdit();
  test('-race ./...', 9, 'Final check of the whole module with -race.');
  s.call(
    'Bash',
    { command: 'git diff --stat', description: 'Summarize the change' },
    ' go.mod                          |  1 +\n go.sum                          |  2 +\n internal/api/middleware.go      |  2 +-\n internal/auth/session.go        | 61 ++++++++++++++++++++++++++++-------\n internal/auth/session_test.go   | 48 +++++++++++++++++++++++++++\n 5 files changed, 99 insertions(+), 15 deletions(-)',
    m,
  );
  s.assistant(
    [
      {
        type: 'text',
        text: '`Session.Refresh` is now safe under concurrency:\n\n- a per-session mutex guards the expiry check and the token swap;\n- concurrent refreshes of one token family are coalesced with `singleflight`, so exactly one rotation happens and every caller gets its result;\n- the expiry is re-checked after acquiring the lock.\n\n`go test -race ./...` passes, including the new `TestRefreshConcurrentFamilies`.',
      },
    ],
    m,
  );
  return s.text();
}

// ---------------------------------------------------------------------------------------------------------
// (b) cache-break: a TypeScript session with usage, a sub-agent, a 7 min 12 s pause and a /model switch.

function cacheBreak(tok: Tokenizer): string {
  const root = '/home/dev/src/drop-api';
  const s = new ClaudeCodeSession(tok, {
    sessionId: '9b2e4d61-0c7f-4a38-b5e9-c4c8e1f0d2a7',
    cwd: root,
    version: '1.0.98',
    start: '2025-09-18T14:20:05.000Z',
    prefix: 14_214,
  });
  const sonnet = 'claude-sonnet-4-20250514';
  const opus = 'claude-opus-4-1-20250805';
  const m = { model: sonnet };
  s.user('Add per-user rate limiting to POST /uploads: 20 uploads per minute, 429 with Retry-After when exceeded.', {
    after: 0,
  });
  s.call(
    'Grep',
    { pattern: 'uploadHandler', path: 'src', output_mode: 'files_with_matches' },
    'Found 3 files\n/home/dev/src/drop-api/src/routes/upload.ts\n/home/dev/src/drop-api/src/server.ts\n/home/dev/src/drop-api/test/upload.test.ts',
    { ...m, text: "I'll find the upload route first." },
  );
  s.call('Read', { file_path: `${root}/src/routes/upload.ts` }, numbered(uploadTs()), m);
  const prompt =
    'Find every place in src/ that already limits request rates (middleware, token buckets, redis counters). For each, report the file, the exported function and how it keys clients. Do not modify files.';
  const taskId = s.toolId();
  s.assistant(
    [
      { type: 'text', text: 'Let me check whether the project already has a rate limiter before writing one.' },
      {
        type: 'tool_use',
        id: taskId,
        name: 'Task',
        input: { description: 'Find existing rate limiters', prompt, subagent_type: 'general-purpose' },
      },
    ],
    m,
  );
  const sc = { model: sonnet, thread: 'agent' };
  s.user(prompt, { thread: 'agent', after: 1 });
  s.call(
    'Grep',
    { pattern: 'rateLimit|RateLimit|tokenBucket|INCR', path: 'src', output_mode: 'content', '-n': true },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text of the sample
    'src/middleware/rateLimit.ts:12:export function rateLimit(opts: RateLimitOptions): RequestHandler {\nsrc/middleware/rateLimit.ts:31:    const key = opts.keyFn(req) ?? req.ip;\nsrc/middleware/rateLimit.ts:40:    const count = await redis.incr(`rl:${opts.name}:${key}:${windowStart}`);\nsrc/server.ts:48:app.use("/auth", rateLimit({ name: "auth", limit: 10, windowMs: 60_000 }));',
    { ...sc, think: 3 },
  );
  s.call(
    'Read',
    { file_path: `${root}/src/middleware/rateLimit.ts` },
    numbered(
      [
        "import type { RequestHandler } from 'express';",
        "import { redis } from '../redis';",
        '',
        'export type RateLimitOptions = {',
        '  name: string;',
        '  limit: number;',
        '  windowMs: number;',
        '  keyFn?: (req: Parameters<RequestHandler>[0]) => string | undefined;',
        '};',
        '',
        '/** Fixed-window limiter backed by Redis INCR + PEXPIRE. */',
        'export function rateLimit(opts: RateLimitOptions): RequestHandler {',
        '  return async (req, res, next) => {',
        '    const windowStart = Math.floor(Date.now() / opts.windowMs) * opts.windowMs;',
        '    const key = opts.keyFn?.(req) ?? req.ip;',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text of the sample
        '    const redisKey = `rl:${opts.name}:${key}:${windowStart}`;',
        '    const count = await redis.incr(redisKey);',
        '    if (count === 1) await redis.pexpire(redisKey, opts.windowMs);',
        '    if (count > opts.limit) {',
        '      const retryAfter = Math.ceil((windowStart + opts.windowMs - Date.now()) / 1000);',
        "      res.set('Retry-After', String(retryAfter));",
        "      res.status(429).json({ error: 'rate_limited', retryAfter });",
        '      return;',
        '    }',
        '    next();',
        '  };',
        '}',
      ].join('\n'),
    ),
    sc,
  );
  s.assistant(
    [
      {
        type: 'text',
        text: 'Found one limiter:\n\n- `src/middleware/rateLimit.ts` exports `rateLimit(opts)`, a fixed-window limiter on Redis (`INCR` + `PEXPIRE`). It keys clients by `opts.keyFn(req)` and falls back to `req.ip`; it already sets `Retry-After` and answers 429.\n- It is used once, in `src/server.ts:48`, for `/auth` (10 per minute, keyed by IP).\n\nNothing else in src/ limits rates.',
      },
    ],
    sc,
  );
  s.user(
    [
      {
        tool_use_id: taskId,
        type: 'tool_result',
        content: [
          {
            type: 'text',
            text: 'Found one limiter:\n\n- `src/middleware/rateLimit.ts` exports `rateLimit(opts)`, a fixed-window limiter on Redis (`INCR` + `PEXPIRE`). It keys clients by `opts.keyFn(req)` and falls back to `req.ip`; it already sets `Retry-After` and answers 429.\n- It is used once, in `src/server.ts:48`, for `/auth` (10 per minute, keyed by IP).\n\nNothing else in src/ limits rates.',
          },
        ],
      },
    ],
    { after: 1 },
  );
  s.call(
    'Edit',
    {
      file_path: `${root}/src/routes/upload.ts`,
      old_string: "router.post('/uploads', requireUser, uploadHandler);",
      new_string:
        "router.post(\n  '/uploads',\n  requireUser,\n  rateLimit({ name: 'uploads', limit: 20, windowMs: 60_000, keyFn: (req) => req.user?.id }),\n  uploadHandler,\n);",
    },
    editResult(
      `${root}/src/routes/upload.ts`,
      "router.post(\n  '/uploads',\n  requireUser,\n  rateLimit({ name: 'uploads', limit: 20, windowMs: 60_000, keyFn: (req) => req.user?.id }),\n  uploadHandler,\n);",
      58,
    ),
    { ...m, text: 'The existing limiter already does what we need; I will key it by user id on the upload route.' },
  );
  s.call(
    'Bash',
    { command: 'npm test -- upload', description: 'Run the upload tests' },
    '\n> drop-api@1.4.0 test\n> vitest run upload\n\n ✓ test/upload.test.ts (9 tests) 412ms\n\n Test Files  1 passed (1)\n      Tests  9 passed (9)\n   Start at  14:22:41\n   Duration  1.38s',
    { ...m, run: 4 },
  );
  s.assistant(
    [
      {
        type: 'text',
        text: 'POST /uploads is now limited to 20 requests per minute per user, reusing `rateLimit` from src/middleware/rateLimit.ts (Redis fixed window, `Retry-After` on 429). The upload tests pass.',
      },
    ],
    m,
  );
  // The user comes back after 7 min 12 s: the 5-minute cache has expired.
  s.user('Thanks. Please also add a test for the 429 path, including the Retry-After header.', { after: 432 - 5 });
  s.call('Read', { file_path: `${root}/test/upload.test.ts` }, numbered(uploadTs(true)), { ...m, think: 5 });
  s.call(
    'Edit',
    {
      file_path: `${root}/test/upload.test.ts`,
      old_string: "describe('POST /uploads', () => {",
      new_string:
        "describe('POST /uploads', () => {\n  it('answers 429 with Retry-After after 20 uploads in a minute', async () => {",
    },
    editResult(
      `${root}/test/upload.test.ts`,
      "describe('POST /uploads', () => {\n  it('answers 429 with Retry-After after 20 uploads in a minute', async () => {\n    const agent = await loginAs('ana');\n    for (let i = 0; i < 20; i++) await agent.post('/uploads').attach('file', tiny).expect(201);\n    const res = await agent.post('/uploads').attach('file', tiny).expect(429);\n    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);\n  });",
      12,
    ),
    m,
  );
  s.call(
    'Bash',
    { command: 'npm test -- upload', description: 'Run the upload tests' },
    '\n> drop-api@1.4.0 test\n> vitest run upload\n\n ✓ test/upload.test.ts (10 tests) 655ms\n\n Test Files  1 passed (1)\n      Tests  10 passed (10)\n   Start at  14:30:31\n   Duration  1.61s',
    { ...m, run: 4 },
  );
  s.assistant([{ type: 'text', text: 'Added the 429 test; all 10 upload tests pass.' }], m);
  // The user switches the model: a new model never reads the old model's cache.
  s.user(
    '<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>opus</command-args>',
    { after: 20 },
  );
  s.user(
    '<local-command-stdout>Set model to \u001b[1mopus (claude-opus-4-1-20250805)\u001b[22m</local-command-stdout>',
    {
      after: 0,
    },
  );
  s.user('Review the change for edge cases around the window boundary before I merge it.', { after: 9 });
  s.call(
    'Grep',
    { pattern: 'windowStart|pexpire', path: 'src/middleware/rateLimit.ts', output_mode: 'content', '-n': true },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text of the sample
    'src/middleware/rateLimit.ts:14:    const windowStart = Math.floor(Date.now() / opts.windowMs) * opts.windowMs;\nsrc/middleware/rateLimit.ts:16:    const redisKey = `rl:${opts.name}:${key}:${windowStart}`;\nsrc/middleware/rateLimit.ts:18:    if (count === 1) await redis.pexpire(redisKey, opts.windowMs);',
    { model: opus, think: 6 },
  );
  s.assistant(
    [
      {
        type: 'text',
        text: 'Two edge cases worth knowing:\n\n1. Fixed windows allow bursts at the boundary: a user can upload 20 at 14:00:59 and 20 more at 14:01:00. If that matters, switch to a sliding log or a token bucket.\n2. `keyFn` returns `undefined` for anonymous requests, which falls back to `req.ip` — harmless here because `requireUser` runs first, but keep that order.\n\nOtherwise the change is safe to merge.',
      },
    ],
    { model: opus },
  );
  return s.text();
}

// ---------------------------------------------------------------------------------------------------------
// (c) pairing-bug: a homegrown harness's request log whose compaction put its summary between a tool_use and
// its tool_result (the pi #8667 / OpenHands #1450 shape).

function pairingBug(): string {
  const system = 'You are a coding agent working in /srv/app. Use the tools to inspect and change files.';
  const tools = [
    {
      name: 'read_file',
      description: 'Read a file',
      input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
    {
      name: 'run_tests',
      description: 'Run the test suite',
      input_schema: { type: 'object', properties: { filter: { type: 'string' } } },
    },
    {
      name: 'edit_file',
      description: 'Replace text in a file',
      input_schema: {
        type: 'object',
        properties: { path: { type: 'string' }, old: { type: 'string' }, new: { type: 'string' } },
        required: ['path', 'old', 'new'],
      },
    },
  ];
  const tu = (id: string, name: string, input: Json) => ({ type: 'tool_use', id, name, input });
  const tr = (id: string, content: string) => ({ type: 'tool_result', tool_use_id: id, content });
  const task = {
    role: 'user',
    content: 'The invoice totals are off by one cent for some currencies. Find and fix the rounding bug.',
  };
  const a1 = {
    role: 'assistant',
    content: [tu('toolu_01Hq3vRk8PzW2nYt5LbXc9aD', 'read_file', { path: 'billing/money.py' })],
  };
  const r1 = {
    role: 'user',
    content: [
      tr(
        'toolu_01Hq3vRk8PzW2nYt5LbXc9aD',
        'from decimal import Decimal, ROUND_HALF_EVEN\n\nMINOR_UNITS = {"USD": 2, "EUR": 2, "JPY": 0, "KWD": 3}\n\n\ndef to_minor(amount: float, currency: str) -> int:\n    places = MINOR_UNITS[currency]\n    return int(round(amount * 10**places))\n\n\ndef total(lines: list[tuple[float, int]], currency: str) -> int:\n    return sum(to_minor(price, currency) * qty for price, qty in lines)\n',
      ),
    ],
  };
  const a2 = {
    role: 'assistant',
    content: [
      { type: 'text', text: '`to_minor` rounds a binary float. Let me see which tests fail.' },
      tu('toolu_01Mb7cTq2WxN4sKe8RgYv1uF', 'run_tests', { filter: 'billing' }),
    ],
  };
  const r2 = {
    role: 'user',
    content: [
      tr(
        'toolu_01Mb7cTq2WxN4sKe8RgYv1uF',
        'FAILED tests/test_money.py::test_total_eur - assert 1004 == 1005\nFAILED tests/test_money.py::test_total_kwd - assert 2309 == 2310\n2 failed, 14 passed in 0.41s',
      ),
    ],
  };
  const a3 = {
    role: 'assistant',
    content: [
      { type: 'text', text: 'I will switch to Decimal with explicit half-up rounding.' },
      tu('toolu_01Zr5yPn6VcD3jHw9QmTb2kE', 'edit_file', {
        path: 'billing/money.py',
        old: '    return int(round(amount * 10**places))',
        new: '    q = Decimal(1).scaleb(-places)\n    return int((Decimal(str(amount)).quantize(q, rounding=ROUND_HALF_UP)).scaleb(places))',
      }),
    ],
  };
  // The harness compacted while edit_file was running: its summary lands between the call and its result.
  const summary = {
    role: 'user',
    content:
      '[Conversation summary] The user reported invoice totals off by one cent. billing/money.py converts floats with round(); tests test_total_eur and test_total_kwd fail by one minor unit. The agent is replacing round() with Decimal quantize (ROUND_HALF_UP).',
  };
  const r3 = {
    role: 'user',
    content: [tr('toolu_01Zr5yPn6VcD3jHw9QmTb2kE', 'Edited billing/money.py (1 replacement).')],
  };
  const a4 = {
    role: 'assistant',
    content: [tu('toolu_01Kc8wLs4RfG7bNp2XyQd6hJ', 'run_tests', { filter: 'billing' })],
  };
  const r4 = {
    role: 'user',
    content: [
      tr('toolu_01Kc8wLs4RfG7bNp2XyQd6hJ', "NameError: name 'ROUND_HALF_UP' is not defined\n16 errors in 0.22s"),
    ],
  };
  const a5 = {
    role: 'assistant',
    content: [
      tu('toolu_01Pd2nVx7TgK5cMr3WsLb8yE', 'edit_file', {
        path: 'billing/money.py',
        old: 'from decimal import Decimal, ROUND_HALF_EVEN',
        new: 'from decimal import Decimal, ROUND_HALF_UP',
      }),
    ],
  };
  const r5 = {
    role: 'user',
    content: [tr('toolu_01Pd2nVx7TgK5cMr3WsLb8yE', 'Edited billing/money.py (1 replacement).')],
  };
  const histories = [
    [task],
    [task, a1, r1],
    [task, a1, r1, a2, r2],
    [task, a1, r1, a2, r2, a3, summary, r3],
    [task, a1, r1, a2, r2, a3, summary, r3, a4, r4],
    [task, a1, r1, a2, r2, a3, summary, r3, a4, r4, a5, r5],
  ];
  return `${histories
    .map((messages) =>
      JSON.stringify({ model: 'claude-sonnet-4-5-20250929', max_tokens: 8192, system, tools, messages }),
    )
    .join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------------------

/** Parse a generated file the way the app will, failing loudly if it does not load cleanly. */
function check(name: string, text: string) {
  const r = parseTranscript(fileFromText(name, text));
  if (!r.ok) throw new Error(`${name}: ${r.error}`);
  const bad = r.transcript.parseIssues.filter((i) => i.severity !== 'info');
  if (bad.length > 0) throw new Error(`${name}: ${bad.map((i) => `${i.line}: ${i.message}`).join('; ')}`);
  return r.transcript;
}

async function main() {
  const tok = await createTokenizer('o200k_base');
  mkdirSync(OUT, { recursive: true });
  const written: SampleEntry[] = [];
  const write = (e: SampleEntry, text: string) => {
    if (text.length > 1_000_000) throw new Error(`${e.file} is over 1 MB`);
    writeFileSync(`${OUT}/${e.file}`, text);
    written.push(e);
  };

  // The story ships as a bundle so it opens without a format guess; source lines point at the generated
  // JSONL, which is not shipped, so they are cleared.
  const storyT = check('story-37-1.jsonl', story(tok));
  for (const th of storyT.threads)
    for (const msg of th.messages) {
      msg.source = { ...msg.source, line: 0 };
      delete msg.source.lines;
    }
  for (const th of storyT.threads) for (const r of th.requests) delete r.line;
  storyT.meta = {
    ...storyT.meta,
    title: 'The 37.1 story: the file still being edited',
    fileName: 'story-37-1.tierscope.json',
  };
  write(
    {
      id: 'story-37-1',
      file: 'story-37-1.tierscope.json',
      title: 'The 37.1 story: the file still being edited',
      description:
        'A 32-request Go refactoring of internal/auth/session.go in a 56K window. When tiers first run, the Read of session.go is at distance ≥ 20: the floor keeps its head and tail, while the bash output beside it becomes a stub — and the agent later re-runs that command (an after-pipeline re-fetch). Tiering also breaks the simulated cache.',
      preset: 'seeds',
      set: { contextWindow: 44_000, outputReserve: 8_000 },
    },
    exportBundle(storyT),
  );

  const cb = cacheBreak(tok);
  check('cache-break.jsonl', cb);
  write(
    {
      id: 'cache-break',
      file: 'cache-break.jsonl',
      title: 'Cache breaks: sub-agent, 7-minute pause, model switch',
      description:
        'A Claude Code session with real-shaped usage: a Task sub-agent (its first request reads only the shared prefix), a 7 min 12 s pause (the 5-minute cache expired) and a /model switch to Opus (a new model never reads the old cache).',
      preset: 'seeds',
    },
    cb,
  );

  const pb = pairingBug();
  check('pairing-bug.jsonl', pb);
  write(
    {
      id: 'pairing-bug',
      file: 'pairing-bug.jsonl',
      title: 'Pairing bug: summary between a tool call and its result',
      description:
        'Request log of a homegrown harness that compacted while edit_file was running: its summary message sits between the tool_use and its tool_result, so every later request is rejected by the provider.',
      preset: 'seeds',
      provider: 'anthropic',
    },
    pb,
  );

  writeFileSync(`${OUT}/index.json`, `${JSON.stringify({ samples: written }, null, 2)}\n`);
  for (const e of written) console.log(`wrote ${OUT}/${e.file}`);
}

await main();
