// Exact counts for a whole transcript from the counting pool: every block text (messages, exact inputs,
// system prompts) and tool definition is counted once in the workers, then primed into the meter so the
// replay and the views never tokenize on their own thread. Small transcripts (and what is left once the texts the
// tokenizer has seen are taken from its cache) are counted inline.
import type { Block, ToolDef, Transcript } from '../model/transcript.ts';
import { countedText, toolDefText } from './block-text.ts';
import { type CountEndpoint, countAll, type PoolProgress } from './count-pool.ts';
import type { TokenMeter } from './meter.ts';
import type { EncodingName } from './tokenizer.ts';

/** Below this many characters the pool's startup (rank loading per worker) costs more than it saves. */
const POOL_MIN_CHARS = 2_000_000;

export type CountStats = { blocks: number; texts: number; chars: number; ms: number; pooled: boolean };

function collect(t: Transcript, meter: TokenMeter): { blocks: Block[]; tools: ToolDef[] } {
  const blocks: Block[] = [];
  const tools: ToolDef[] = [];
  const seenB = new Set<Block>();
  const seenT = new Set<ToolDef>();
  const addBlocks = (list: readonly Block[] | undefined) => {
    for (const b of list ?? [])
      if (!seenB.has(b) && !meter.hasBlock(b)) {
        seenB.add(b);
        blocks.push(b);
      }
  };
  for (const th of t.threads) {
    // main thread first: it is what the view shows first
    for (const m of th.messages) addBlocks(m.blocks);
    addBlocks(th.prefix.system);
    for (const tool of th.prefix.tools ?? [])
      if (!seenT.has(tool)) {
        seenT.add(tool);
        tools.push(tool);
      }
    for (const r of th.requests) {
      for (const m of r.exactInput ?? []) addBlocks(m.blocks);
      addBlocks(r.exactPrefix?.system);
      for (const tool of r.exactPrefix?.tools ?? [])
        if (!seenT.has(tool)) {
          seenT.add(tool);
          tools.push(tool);
        }
    }
  }
  return { blocks, tools };
}

/** The items whose text the tokenizer does not know yet, with those texts; the others are adopted with their count. */
function unknownOf<T>(
  items: readonly T[],
  textOf: (x: T) => string,
  known: (text: string) => number | undefined,
  adopt: (x: T, n: number) => void,
): [T[], string[]] {
  const out: T[] = [];
  const texts: string[] = [];
  for (const x of items) {
    const text = textOf(x);
    const n = known(text);
    if (n !== undefined) adopt(x, n);
    else {
      out.push(x);
      texts.push(text);
    }
  }
  return [out, texts];
}

/** Count every text of `t` on the endpoints and prime `meter`; returns stats. `derived()`: texts a run will likely
 *  make from the log (Tier-1 stubs), counted with it by the pool and primed into the tokenizer; not made when the
 *  transcript is small enough to count inline. */
export async function countTranscript(
  t: Transcript,
  meter: TokenMeter,
  encoding: EncodingName,
  endpoints: () => readonly CountEndpoint[],
  onProgress?: (p: PoolProgress) => void,
  derived?: () => readonly string[],
): Promise<CountStats> {
  const t0 = performance.now();
  const collected = collect(t, meter);
  // Texts the tokenizer has counted before (the same session read again as it grew, the same file opened again)
  // are taken from its cache; only the others are counted, so a followed session's growth counts what it added.
  const known = (text: string) => meter.tokenizer.known?.(text);
  const [blocks, blockTexts] = unknownOf(collected.blocks, countedText, known, (b, n) => meter.adoptBlock(b, n));
  const [tools, toolTexts] = unknownOf(collected.tools, toolDefText, known, (x, n) => meter.adoptTool(x, n));
  const texts = [...blockTexts, ...toolTexts];
  const chars = texts.reduce((n, s) => n + s.length, 0);
  if (chars < POOL_MIN_CHARS) {
    for (const b of blocks) meter.block(b);
    for (const tool of tools) meter.tool(tool);
    onProgress?.({ done: 1, total: 1, chars, totalChars: chars });
    return { blocks: blocks.length, texts: texts.length, chars, ms: performance.now() - t0, pooled: false };
  }
  const made = (derived?.() ?? []).filter((text) => known(text) === undefined);
  const owned = texts.length;
  texts.push(...made);
  const eps = endpoints();
  try {
    const units: (Uint32Array | undefined)[] = [];
    const counts = await countAll(texts, encoding, eps, onProgress, undefined, (i, u) => {
      units[i] = u;
    });
    blocks.forEach((b, i) => {
      meter.primeBlock(b, counts[i], units[i]);
    });
    tools.forEach((tool, i) => {
      meter.primeTool(tool, counts[blocks.length + i]);
    });
    made.forEach((text, i) => {
      meter.tokenizer.prime?.(text, counts[owned + i]);
    });
  } finally {
    for (const e of eps) e.close();
  }
  return { blocks: blocks.length, texts: texts.length, chars, ms: performance.now() - t0, pooled: true };
}
