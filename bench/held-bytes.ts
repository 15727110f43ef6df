// Live heap held per message of a generated log of many small messages (issue 19 item 10: a million of them took
// 3.9 GB in the CLI), measured after a full GC: after the parse (the transcript) and at the end of a run (the
// analysis with its run cache, as `tierscope analyze` holds them before printing). Prints one JSON line.
// `node --expose-gc --import tsx bench/held-bytes.ts [messages]`; test/cli/held-bytes.test.ts runs it.
import { analyze, newCache } from '../src/analyses/analyze.ts';
import { logDefaults } from '../src/analyses/log-defaults.ts';
import { resolveSettings, settingsFor } from '../src/cli/options.ts';
import { fileFromBytes, parseTranscript } from '../src/formats/index.ts';
import type { Transcript } from '../src/model/transcript.ts';
import { createTokenizer } from '../src/tokens/tokenizer.ts';
import { claudeCodeSmallLines } from './generate.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const messages = Number(process.argv[2] ?? 60_000);
const flags = resolveSettings({ command: 'analyze', positional: [], options: new Map(), switches: new Set() });
const tokenizer = await createTokenizer(flags.encoding);
tokenizer.count('warm up the tokenizer before the baseline');
/** The log's bytes (made in a function: the module's own frame would keep the temporaries alive). */
function logBytes(): Uint8Array {
  return new TextEncoder().encode(`${[...claudeCodeSmallLines(Number.POSITIVE_INFINITY, 5, messages)].join('\n')}\n`);
}
function parse(bytes: Uint8Array): Transcript {
  const loaded = parseTranscript(fileFromBytes('small.jsonl', bytes));
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.transcript;
}
const bytes = logBytes();
const base = heap();
const t = parse(bytes);
const parsed = heap();
const settings = settingsFor(flags, logDefaults(t));
const cache = newCache(t, tokenizer);
const a = analyze(t, {
  ...settings,
  preset: settings.preset,
  tokenizer,
  cache,
  withoutPipeline: true,
  reportRows: false,
});
const run = heap();
const n = t.threads.reduce((s, th) => s + th.messages.length, 0);
console.log(
  JSON.stringify({
    messages: n,
    requests: a.replay.threads.reduce((s, th) => s + th.requests.length, 0),
    transcriptPerMessage: Math.round((parsed - base) / n),
    runPerMessage: Math.round((run - parsed) / n),
    cacheHeld: cache.transcript === t,
  }),
);
