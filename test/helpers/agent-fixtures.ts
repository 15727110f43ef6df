// The repo's own fixtures of the agents added in issue 31 (test/fixtures/<format>/, each folder with its
// PROVENANCE.md), and an independent computation of their recorded dollars straight from the raw files: no
// parser, only each writer's own usage rule (quoted beside each) and the catalog's prices (independent-cost.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { type LoadOptions, parseTranscript } from '../../src/formats/index.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { REPO_ROOT } from './fixture-inputs.ts';
import { dollars, type Independent, type Usage } from './independent-cost.ts';

const AGENT_FIXTURES = join(REPO_ROOT, 'test/fixtures');

export function agentFixture(rel: string): string {
  return join(AGENT_FIXTURES, rel);
}

/** Load a repo fixture with its companions; fails loudly when it does not load. */
export function loadAgent(rel: string, options: LoadOptions = {}): Transcript {
  const p = agentFixture(rel);
  const r = parseTranscript(fileFromPath(p), companionFiles(p), options);
  if (!r.ok) throw new Error(`${rel} did not load: ${r.error}`);
  return r.transcript;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function total(list: { model: string; time: unknown; usage: Usage }[]): Independent {
  let usd = 0;
  const unpriced = new Set<string>();
  for (const x of list) {
    const d = dollars(x.model, x.time, x.usage);
    if (d === null) unpriced.add(x.model);
    else usd += d;
  }
  return { usd, responses: list.length, unpriced: [...unpriced] };
}

/** Gemini CLI `.json`: every `gemini` message with non-zero tokens; `cached` ⊂ `input`, thoughts billed as output,
 *  `tool` (toolUsePromptTokenCount) as input (chatRecordingTypes.ts TokensSummary mirrors usageMetadata). */
export function geminiJsonDollars(path: string): Independent {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { messages: Record<string, unknown>[] };
  const out = [];
  for (const m of doc.messages) {
    const t = m.tokens as Record<string, unknown> | undefined;
    if (m.type !== 'gemini' || !t) continue;
    const input = num(t.input);
    const cached = num(t.cached);
    const usage: Usage = {
      input: input - cached + num(t.tool),
      cacheRead: cached,
      output: num(t.output) + num(t.thoughts),
      write5m: 0,
      write1h: 0,
    };
    if (input + num(t.output) + num(t.thoughts) + num(t.tool) === 0) continue;
    out.push({ model: String(m.model ?? ''), time: m.timestamp, usage });
  }
  return total(out);
}

/** Cline 3.x task folder: ui_messages.json `api_req_started` entries, `tokensIn` disjoint from cache reads and
 *  writes (cline/cline message-translator.ts), at the model the entry names. Roo since 2025-10-31 (`total`):
 *  `tokensIn` is the whole prompt. */
export function clineTaskDollars(uiPath: string, whole = false): Independent {
  const ui = JSON.parse(readFileSync(uiPath, 'utf8')) as Record<string, unknown>[];
  // Roo names the model only in the environment details of each user turn (`<model>…</model>`).
  const history = JSON.parse(
    readFileSync(uiPath.replace(/ui_messages\.json$/, 'api_conversation_history.json'), 'utf8'),
  );
  const envModels: string[] = [];
  let current = '';
  for (const h of history as { role: string; content: unknown }[]) {
    const found = /<model>([^<]+)<\/model>/.exec(JSON.stringify(h.content))?.[1];
    if (h.role === 'user' && found) current = found;
    if (h.role === 'assistant') envModels.push(current);
  }
  const out = [];
  let k = 0;
  for (const m of ui) {
    if (m.say !== 'api_req_started') continue;
    const info = JSON.parse(String(m.text)) as Record<string, unknown>;
    const read = num(info.cacheReads);
    const write = num(info.cacheWrites);
    const usage: Usage = {
      input: whole ? num(info.tokensIn) - read - write : num(info.tokensIn),
      cacheRead: read,
      write5m: write,
      write1h: 0,
      output: num(info.tokensOut),
    };
    const named = (m.modelInfo as Record<string, unknown> | undefined)?.modelId;
    out.push({ model: String(named ?? envModels[k] ?? ''), time: new Date(num(m.ts)).toISOString(), usage });
    k++;
  }
  return total(out);
}

/** Cline 4 messages.json: each assistant message's `metrics`, `inputTokens` holding reads and writes
 *  (sdk/packages/llms/src/providers/ai-sdk.ts bills inputTokens − cacheRead − cacheWrite as input). */
export function clineSessionDollars(path: string): Independent {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { messages: Record<string, unknown>[] };
  const out = [];
  for (const m of doc.messages) {
    const x = m.metrics as Record<string, unknown> | undefined;
    if (m.role !== 'assistant' || !x) continue;
    const read = num(x.cacheReadTokens);
    const write = num(x.cacheWriteTokens);
    const usage: Usage = {
      input: num(x.inputTokens) - read - write,
      cacheRead: read,
      write5m: write,
      write1h: 0,
      output: num(x.outputTokens),
    };
    out.push({
      model: String((m.modelInfo as Record<string, unknown>)?.id ?? ''),
      time: new Date(num(m.ts)).toISOString(),
      usage,
    });
  }
  return total(out);
}

/** ATIF: each agent step's metrics; `prompt_tokens` holds `cached_tokens` ("This is included in the prompt_tokens
 *  count", harbor docs/rfcs/0001-trajectory-format.md), completion tokens as output. */
export function atifDollars(path: string): Independent {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as {
    agent: Record<string, unknown>;
    steps: Record<string, unknown>[];
  };
  const out = [];
  for (const s of doc.steps) {
    const x = s.metrics as Record<string, unknown> | undefined;
    if (s.source !== 'agent' || !x || num(x.prompt_tokens) + num(x.completion_tokens) === 0) continue;
    const usage: Usage = {
      input: num(x.prompt_tokens) - num(x.cached_tokens),
      cacheRead: num(x.cached_tokens),
      output: num(x.completion_tokens),
      write5m: 0,
      write1h: 0,
    };
    out.push({ model: String(s.model_name ?? doc.agent.model_name ?? ''), time: s.timestamp, usage });
  }
  return total(out);
}

/** OTLP JSON lines: the `chat` spans' gen_ai.usage.* (input_tokens holds the cache reads), never the
 *  `invoke_agent` totals above them. */
export function otelDollars(path: string): Independent {
  const out = [];
  for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
    const body = JSON.parse(line) as { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] };
    for (const rs of body.resourceSpans)
      for (const ss of rs.scopeSpans)
        for (const s of ss.spans) {
          const a = new Map(
            (s.attributes as { key: string; value: Record<string, unknown> }[]).map((x) => [
              x.key,
              x.value.intValue !== undefined ? Number(x.value.intValue) : x.value.stringValue,
            ]),
          );
          if (a.get('gen_ai.operation.name') !== 'chat' || a.get('gen_ai.usage.input_tokens') === undefined) continue;
          const read = num(a.get('gen_ai.usage.cache_read.input_tokens'));
          const usage: Usage = {
            input: num(a.get('gen_ai.usage.input_tokens')) - read,
            cacheRead: read,
            output: num(a.get('gen_ai.usage.output_tokens')),
            write5m: 0,
            write1h: 0,
          };
          const time = new Date(Number(BigInt(String(s.startTimeUnixNano)) / 1000000n)).toISOString();
          out.push({ model: String(a.get('gen_ai.response.model') ?? a.get('gen_ai.request.model')), time, usage });
        }
  }
  return total(out);
}
