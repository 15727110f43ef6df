// Write a generated log to disk: `tsx bench/write-log.ts <claude-code|openai-chat|claude-trace> <MB> <out> [seed]`.
import { createWriteStream } from 'node:fs';
import { claudeCodeLines, claudeTraceLines, openaiChatLines } from './generate.ts';

const [kind = 'claude-code', mb = '10', out = 'bench/out/log.jsonl', seed = '1', maxRequests] = process.argv.slice(2);
const gen = kind === 'openai-chat' ? openaiChatLines : kind === 'claude-trace' ? claudeTraceLines : claudeCodeLines;
const ws = createWriteStream(out);
let n = 0;
const opts = maxRequests ? { maxRequests: Number(maxRequests), resultScale: 0.25 } : {};
for (const line of kind === 'claude-code'
  ? claudeCodeLines(Number(mb) * 1024 * 1024, Number(seed), opts)
  : gen(Number(mb) * 1024 * 1024, Number(seed))) {
  if (!ws.write(`${line}\n`)) await new Promise<void>((r) => ws.once('drain', () => r()));
  n++;
}
ws.end();
console.log(`${out}: ${n} lines`);
