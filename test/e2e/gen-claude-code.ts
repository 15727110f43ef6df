// A deterministic generator of Claude Code session JSONL (2.0.x line shapes) of a requested size, for the
// large-log performance test: a user task, then turns of an assistant tool call (Read / Bash / Grep /
// Edit, sometimes with a short text) and its tool result, with usage that grows like a cached prompt,
// and the agent's own compaction (compact_boundary + summary) whenever the prompt nears 150K tokens.
// Seeded PRNG, fixed clock: the same size gives the same bytes.

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'session token cache tier result file line error value refresh rotate lock mutex context request handler config parse buffer stream index offset'.split(
    ' ',
  );
const FILES = ['internal/auth/session.go', 'internal/auth/token.go', 'cmd/server/main.go', 'pkg/cache/lru.go'];

/** Claude Code JSONL of about `bytes` bytes (never less). */
export function generateClaudeCode(bytes: number, seed = 37): string {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const text = (n: number): string => {
    const out: string[] = [];
    let len = 0;
    while (len < n) {
      const line = Array.from({ length: 6 + Math.floor(rnd() * 8) }, () => pick(WORDS)).join(' ');
      out.push(line);
      len += line.length + 1;
    }
    return out.join('\n');
  };
  const session = '7e57da7a-0000-4000-8000-000000000037';
  const base = { isSidechain: false, userType: 'external', cwd: '/repo', sessionId: session, version: '2.0.14' };
  const lines: string[] = [];
  let size = 0;
  let time = Date.UTC(2025, 8, 1, 9, 0, 0);
  let parent: string | null = null;
  let n = 0;
  let prompt = 12_000;
  const push = (o: Record<string, unknown>) => {
    const uuid = `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`;
    time += 1000 + Math.floor(rnd() * 20_000);
    const line = JSON.stringify({ parentUuid: parent, ...base, ...o, uuid, timestamp: new Date(time).toISOString() });
    parent = uuid;
    lines.push(line);
    size += line.length + 1;
  };
  push({
    type: 'user',
    message: { role: 'user', content: 'Refactor the session refresh path and keep the tests green.' },
  });
  let turn = 0;
  while (size < bytes) {
    turn++;
    const tool = pick(['Read', 'Bash', 'Grep', 'Edit', 'Read', 'Bash']);
    const input =
      tool === 'Read'
        ? { file_path: `/repo/${pick(FILES)}` }
        : tool === 'Bash'
          ? { command: pick(['go test ./...', 'go vet ./...', 'git diff', 'go build ./...']) }
          : tool === 'Grep'
            ? { pattern: pick(WORDS), path: '/repo' }
            : { file_path: `/repo/${pick(FILES)}`, old_string: pick(WORDS), new_string: pick(WORDS) };
    const id = `toolu_${String(turn).padStart(8, '0')}`;
    const content: Record<string, unknown>[] = [];
    if (rnd() < 0.3) content.push({ type: 'text', text: text(80 + Math.floor(rnd() * 300)) });
    content.push({ type: 'tool_use', id, name: tool, input });
    const result = text(tool === 'Edit' ? 120 : 400 + Math.floor(rnd() * 5000));
    const read = Math.max(0, prompt - 2000);
    push({
      type: 'assistant',
      message: {
        id: `msg_${String(turn).padStart(8, '0')}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-20250514',
        content,
        stop_reason: 'tool_use',
        usage: {
          input_tokens: 4,
          cache_creation_input_tokens: prompt - read,
          cache_read_input_tokens: read,
          output_tokens: 90,
        },
      },
      requestId: `req_${String(turn).padStart(8, '0')}`,
    });
    push({
      type: 'user',
      message: {
        role: 'user',
        content: [{ tool_use_id: id, type: 'tool_result', content: result, is_error: rnd() < 0.02 }],
      },
    });
    prompt += Math.round(result.length / 3.5) + 120;
    if (prompt >= 150_000) {
      const logical = parent;
      parent = null;
      push({
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        logicalParentUuid: logical,
        compactMetadata: { trigger: 'auto', preTokens: prompt },
        level: 'info',
      });
      push({
        type: 'user',
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
        message: {
          role: 'user',
          content: `This session is being continued from a previous conversation that ran out of context. Summary:\n${text(6000)}`,
        },
      });
      prompt = 16_000;
    }
  }
  return `${lines.join('\n')}\n`;
}
