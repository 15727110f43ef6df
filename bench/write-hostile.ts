// Write one of issue 29's large-but-ordinary logs to disk: `tsx bench/write-hostile.ts <tool-calls|every-break|traj>
// <count> <out> [seed]` — N tool calls, N requests that each miss the cache, or a `.traj` of N steps.
import { createWriteStream } from 'node:fs';
import { claudeCodeEveryBreak, claudeCodeToolCalls, sweAgentTrajectory } from './generate-hostile.ts';

const [kind = 'tool-calls', count = '70000', out = 'bench/out/hostile.jsonl', seed] = process.argv.slice(2);
const n = Number(count);
const s = seed === undefined ? undefined : Number(seed);
const gen =
  kind === 'traj'
    ? sweAgentTrajectory(n, s)
    : kind === 'every-break'
      ? claudeCodeEveryBreak(n, s)
      : claudeCodeToolCalls(n, s);
const sep = kind === 'traj' ? '' : '\n';
const ws = createWriteStream(out);
for (const piece of gen) if (!ws.write(`${piece}${sep}`)) await new Promise<void>((r) => ws.once('drain', () => r()));
ws.end();
console.log(`${out}: ${kind} × ${n}`);
