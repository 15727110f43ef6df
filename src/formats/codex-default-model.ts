// The model a Codex rollout ran with when it names none (older rollouts write no `turn_context.model`): the default
// of its CLI version, so its usage is priced instead of costing "$0.00". The versions' defaults come from Codex's
// release history as its rollouts show it — GPT-5 became the default in 0.20 (Aug 2025), gpt-5-codex with 0.36, then
// gpt-5.1-codex (0.58), gpt-5.1-codex-max (0.59), gpt-5.2-codex (0.7x), gpt-5.3-codex (0.10x), gpt-5.4 (0.111) — and
// the real rollouts of those versions in the fixtures name the same models (0.42 and 0.57 gpt-5-codex, 0.61 and 0.63
// gpt-5.1-codex-max, 0.77 gpt-5.2-codex, 0.104 gpt-5.3-codex, 0.114 gpt-5.4). It stays an assumption: the request
// carries it, the transcript says it is assumed and why, and typed prices for that id (`prices`) re-price it.

/** [first version, default model], newest first. */
const DEFAULTS: [number[], string][] = [
  [[0, 111, 0], 'gpt-5.4'],
  [[0, 100, 0], 'gpt-5.3-codex'],
  [[0, 70, 0], 'gpt-5.2-codex'],
  [[0, 59, 0], 'gpt-5.1-codex-max'],
  [[0, 58, 0], 'gpt-5.1-codex'],
  [[0, 36, 0], 'gpt-5-codex'],
  [[0, 0, 0], 'gpt-5'],
];

function parts(v: string): number[] | undefined {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

const atLeast = (a: number[], b: number[]) => {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
};

/** The model a rollout of CLI `version` defaulted to, and why; gpt-5 (what ccusage assumes) when the version is
 *  unknown or unreadable. */
export function codexDefaultModel(version: string | undefined): { model: string; why: string } {
  const v = version ? parts(version) : undefined;
  if (!v)
    return {
      model: 'gpt-5',
      why: `the rollout names no model and no readable CLI version${version ? ` ("${version}")` : ''}: gpt-5 assumed (Codex's default from 0.20 on; ccusage assumes the same)`,
    };
  const found = DEFAULTS.find(([from]) => atLeast(v, from)) ?? DEFAULTS[DEFAULTS.length - 1];
  return {
    model: found[1],
    why: `the rollout names no model: ${found[1]} assumed, the default of Codex ${version} (type prices for ${found[1]} to re-price it)`,
  };
}
