// Write a generated log to disk: `tsx bench/write-log.ts <claude-code|claude-code-thread|claude-code-small|openai-chat|
// claude-trace> <MB> <out> [seed] [maxRequests]` (claude-code-small: [maxMessages]; claude-code-thread: one thread,
// every request a text and 1–4 parallel tool calls, nothing compacted). A Claude Code log's sub-agents go where Claude Code 2.x puts them: <out minus .jsonl>/subagents/.
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { createTokenizer } from '../src/tokens/tokenizer.ts';
import { claudeCodeLines, claudeCodeSmallLines, claudeTraceLines, openaiChatLines } from './generate.ts';

const [kind = 'claude-code', mb = '10', out = 'bench/out/log.jsonl', seed = '1', maxRequests] = process.argv.slice(2);
const gen =
  kind === 'openai-chat'
    ? openaiChatLines
    : kind === 'claude-trace'
      ? claudeTraceLines
      : kind === 'claude-code-small'
        ? (bytes: number, s: number) => claudeCodeSmallLines(bytes, s, Number(maxRequests ?? Number.POSITIVE_INFINITY))
        : undefined;
const ws = createWriteStream(out);
let n = 0;
const agents = new Map<string, string[]>();
const onAgentLine = (id: string, line: string) => {
  const list = agents.get(id) ?? [];
  list.push(line);
  agents.set(id, list);
};
const thread = kind === 'claude-code-thread';
// One thread's usage follows o200k's count of what each request adds (generate.ts ClaudeCodeOptions.count).
const tokenizer = thread ? await createTokenizer('o200k_base') : undefined;
const opts = {
  onAgentLine,
  singleThread: thread,
  count: tokenizer && ((text: string) => tokenizer.count(text)),
  ...(maxRequests
    ? { maxRequests: Number(maxRequests), resultScale: thread ? Number(process.env.SCALE ?? 0.08) : 0.25 }
    : {}),
};
for (const line of gen
  ? gen(Number(mb) * 1024 * 1024, Number(seed))
  : claudeCodeLines(Number(mb) * 1024 * 1024, Number(seed), opts)) {
  if (!ws.write(`${line}\n`)) await new Promise<void>((r) => ws.once('drain', () => r()));
  n++;
}
ws.end();
if (agents.size > 0) {
  const dir = `${out.replace(/\.jsonl$/, '')}/subagents`;
  mkdirSync(dir, { recursive: true });
  for (const [id, lines] of agents) writeFileSync(`${dir}/agent-${id}.jsonl`, `${lines.join('\n')}\n`);
}
console.log(`${out}: ${n} lines, ${agents.size} sub-agent files`);
