// Model probes of a compaction (issue 17 deliver 4, the seeds' skill): the four question types — recall, artifact,
// continuation, decision — asked of a model that sees only the summary, and its answers graded against the ledger
// of the span the summary folded with the same exact rules as the deterministic probes (probes.ts). The calls are
// made by the page, with the user's own endpoint and key and only after the user asks (state/endpoint-call.ts);
// this module only writes the prompts and grades the answers. Decision answers are shown, never graded (no anchor).
import { hashKey } from '../lib/hash.ts';
import type { Ledger } from './ledger.ts';
import { PROBE_TYPES, type ProbeKind, type Probes, probeSummary } from './probes.ts';

type ProbeType = keyof typeof PROBE_TYPES;

export const MODEL_PROBE_SYSTEM =
  'You are an AI coding agent resuming work after your context was compacted. All you remember is the summary you are given. Answer only from it, with exact file paths, error strings and names; say "unknown" when the summary does not say.';

const QUESTIONS: Readonly<Record<ProbeType, string>> = {
  recall:
    'What were the exact error messages you ran into, and which functions, variables or constants did you define or change?',
  artifact: 'Which files did you modify, and which files did you read without modifying? Give full paths.',
  continuation:
    'What should you do next? List the open todo items and the latest instructions the user gave, in their words.',
  decision: 'What did you decide so far, and why?',
};

/** One model probe to ask: `key` identifies it (the compaction and the question, by content). */
export type ModelProbeCall = { key: string; type: ProbeType; question: string; prompt: string };

/** A graded answer: per ledger kind of its type, what the answer named (kept) and missed (lost); null: ungraded. */
export type ModelProbeResult = {
  type: ProbeType;
  question: string;
  answer: string | null;
  error: string | null;
  graded: Partial<Probes> | null;
};

/** The four probes of a summary. */
export function modelProbeCalls(compactionId: string, summary: string): ModelProbeCall[] {
  return (Object.keys(PROBE_TYPES) as ProbeType[]).map((type) => {
    const question = QUESTIONS[type];
    const prompt = `Your summary of the work so far:\n\n${summary}\n\nQuestion: ${question}`;
    return { key: hashKey(`${compactionId}\n${type}\n${prompt}`), type, question, prompt };
  });
}

/** Grade answers (by call key; an error where the call failed) against the ledger. */
export function gradeModelProbes(
  calls: readonly ModelProbeCall[],
  answers: ReadonlyMap<string, { ok: true; text: string } | { ok: false; error: string }>,
  ledger: Ledger,
): ModelProbeResult[] {
  return calls.map((c) => {
    const a = answers.get(c.key);
    const base = { type: c.type, question: c.question };
    if (!a) return { ...base, answer: null, error: 'not asked', graded: null };
    if (!a.ok) return { ...base, answer: null, error: a.error, graded: null };
    const kinds = PROBE_TYPES[c.type];
    if (kinds.length === 0) return { ...base, answer: a.text, error: null, graded: null };
    const all = probeSummary(a.text, ledger);
    const graded: Partial<Probes> = {};
    for (const k of kinds as readonly ProbeKind[]) graded[k] = all[k];
    return { ...base, answer: a.text, error: null, graded };
  });
}
