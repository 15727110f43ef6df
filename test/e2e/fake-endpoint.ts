// A local fake summarizer endpoint (a node:http server on 127.0.0.1 that answers in the OpenAI
// chat-completions and Anthropic messages shapes, records every call, and fails on /fail/…), and a Claude Code
// session that needs summaries: shared by the summarizer e2e specs.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Call = {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  kind: 'result' | 'turns';
};

/** The fake endpoint: records every call (and in `hits` every request, preflights included); /fail/… answers
 *  500; others answer in the shape of their path. */
export function fakeEndpoint(): Promise<{ server: Server; origin: string; calls: Call[]; hits: string[] }> {
  const calls: Call[] = [];
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader(
      'access-control-allow-headers',
      'authorization, content-type, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
    );
    res.setHeader('access-control-allow-methods', 'POST');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString('utf8');
    });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      const messages = (body.messages ?? []) as { content: string }[];
      const prompt = messages.at(-1)?.content ?? '';
      const kind = prompt.startsWith('Summarize these earlier agent turns') ? 'turns' : 'result';
      const path = req.url ?? '';
      calls.push({ path, headers: req.headers, body, kind });
      res.setHeader('content-type', 'application/json');
      if (path.startsWith('/fail/')) {
        res.writeHead(500).end(JSON.stringify({ error: { message: 'overloaded (fake endpoint)' } }));
        return;
      }
      const text =
        kind === 'turns'
          ? 'FAKE TURN SUMMARY: the agent ran go test in every package; the cache test is still flaky.'
          : 'FAKE RESULT SUMMARY: go test output, cache errors noted.';
      if (path.endsWith('/v1/messages'))
        res.end(JSON.stringify({ type: 'message', role: 'assistant', content: [{ type: 'text', text }] }));
      else res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: text } }] }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({ server, origin: `http://127.0.0.1:${port}`, calls, hits });
    }),
  );
}

const WORDS =
  'alpha beta gamma delta session token cache error refresh handler config parse buffer stream index offset lock mutex retry'.split(
    ' ',
  );

function words(n: number, seed: number): string {
  let a = seed;
  const out: string[] = [];
  let len = 0;
  while (len < n) {
    a = (a * 1103515245 + 12345) >>> 0;
    const w = WORDS[a % WORDS.length];
    out.push(w);
    len += w.length + 1;
    if (out.length % 12 === 0) out.push('\n');
  }
  return out.join(' ');
}

/** A Claude Code session of `turns` Bash calls with ~3000-char results (no usage: nothing calibrates). */
export function session(turns: number): string {
  const lines: string[] = [];
  let parent: string | null = null;
  let n = 0;
  const base = { isSidechain: false, userType: 'external', cwd: '/repo', sessionId: 's-1', version: '2.0.14' };
  const push = (o: Record<string, unknown>) => {
    const uuid = `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`;
    const timestamp = new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString();
    lines.push(JSON.stringify({ parentUuid: parent, ...base, ...o, uuid, timestamp }));
    parent = uuid;
  };
  const model = 'claude-sonnet-4-20250514';
  push({ type: 'user', message: { role: 'user', content: 'Fix the flaky cache test in pkg/cache.' } });
  for (let i = 1; i <= turns; i++) {
    const id = `toolu_${String(i).padStart(4, '0')}`;
    push({
      type: 'assistant',
      requestId: `req_${i}`,
      message: {
        id: `msg_${i}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'tool_use', id, name: 'Bash', input: { command: `go test ./pkg/p${i}` } }],
        stop_reason: 'tool_use',
      },
    });
    push({
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: `--- run ${i}\n${words(3000, i)}` }],
      },
    });
  }
  push({
    type: 'assistant',
    requestId: 'req_end',
    message: { id: 'msg_end', type: 'message', role: 'assistant', model, content: [{ type: 'text', text: 'Done.' }] },
  });
  return `${lines.join('\n')}\n`;
}
