// Seeded generators of the large-but-ordinary logs that found stack and quadratic cliffs (issue 29): a Claude Code
// session of tens of thousands of small tool calls, one where every request breaks the cache (a prompt with a
// timestamp in it: nothing is ever read back), and SWE-agent trajectories of 10⁵–10⁶ tiny steps. Each yields its
// text in pieces, so a 100 MB file is written without holding it in memory.
import { prose, Rng } from './content.ts';

const SESSION = '2b9c4d1e-0000-4000-8000-00000000c29a';
const MODEL = 'claude-sonnet-4-5-20250929';

type Msg = Record<string, unknown>;

/** Lean Claude Code 2.x lines: a user line, then per response one line per block, results one line each. */
function claudeCodeWriter(seed: number) {
  const r = new Rng(seed);
  let time = Date.UTC(2026, 9, 1, 9, 0, 0);
  let parent: string | null = null;
  let n = 0;
  const id = () => `${(r.next() * 2 ** 52).toString(36)}${(++n).toString(36)}`;
  const line = (type: string, rest: Msg, parentUuid: string | null = parent): string => {
    const u = `u-${id()}`;
    const s = JSON.stringify({
      parentUuid,
      isSidechain: false,
      sessionId: SESSION,
      type,
      ...rest,
      uuid: u,
      timestamp: new Date(time).toISOString(),
    });
    parent = u;
    return s;
  };
  return { r, id, line, tick: (ms: number) => (time += ms), parent: () => parent };
}

/**
 * A Claude Code session of `calls` tool calls (batches of 1–4 parallel calls, a short result each, usage on every
 * response with a warm cache): the shape of a long agentic run, ~0.9 KB a call.
 */
export function* claudeCodeToolCalls(calls: number, seed = 29): Generator<string> {
  const w = claudeCodeWriter(seed);
  const { r } = w;
  let prompt = 14_000;
  yield w.line('user', { message: { role: 'user', content: 'Run the checks until they pass.' } });
  for (let done = 0; done < calls; ) {
    const batch = Math.min(calls - done, r.chance(0.6) ? 1 : r.int(2, 4));
    const msgId = `msg_${w.id()}`;
    const requestId = `req_${w.id()}`;
    const usage = {
      input_tokens: 3,
      cache_creation_input_tokens: 60,
      cache_read_input_tokens: prompt,
      output_tokens: 40,
    };
    prompt += 100 * batch;
    w.tick(r.int(2, 20) * 1000);
    const ids: string[] = [];
    for (let i = 0; i < batch; i++) {
      const toolId = `toolu_${w.id()}`;
      const input = r.chance(0.5)
        ? { command: r.pick(['ls', 'git status', 'npm test']) }
        : { file_path: `/repo/src/m${r.int(1, 400)}.ts` };
      const name = 'command' in input ? 'Bash' : 'Read';
      const content = [{ type: 'tool_use', id: toolId, name, input }];
      ids.push(toolId);
      yield w.line('assistant', { message: { id: msgId, role: 'assistant', model: MODEL, content, usage }, requestId });
    }
    // Each result hangs off the last call line (a fan of siblings, as Claude Code 2.x writes parallel results).
    const from = w.parent();
    for (const toolId of ids) {
      w.tick(1000);
      const content = [{ type: 'tool_result', tool_use_id: toolId, content: prose(r, r.int(20, 160)) }];
      yield w.line('user', { message: { role: 'user', content } }, from);
    }
    done += batch;
  }
}

/**
 * A Claude Code session of `requests` responses where every request misses the cache (its prompt starts with a
 * timestamp, so nothing is read back): a break per request, each `unexplained` by what the log records.
 */
export function* claudeCodeEveryBreak(requests: number, seed = 30): Generator<string> {
  const w = claudeCodeWriter(seed);
  const { r } = w;
  let prompt = 14_000;
  for (let k = 0; k < requests; k++) {
    w.tick(r.int(5, 60) * 1000);
    const ask = prose(r, r.int(60, 200));
    prompt += Math.ceil(ask.length / 4);
    yield w.line('user', { message: { role: 'user', content: ask } });
    w.tick(r.int(2, 20) * 1000);
    const text = prose(r, r.int(60, 200));
    const usage = {
      input_tokens: 4,
      cache_creation_input_tokens: prompt,
      cache_read_input_tokens: 0,
      output_tokens: Math.ceil(text.length / 4),
    };
    prompt += usage.output_tokens;
    const message = { id: `msg_${w.id()}`, role: 'assistant', model: MODEL, content: [{ type: 'text', text }], usage };
    yield w.line('assistant', { message, requestId: `req_${w.id()}` });
  }
}

/**
 * A SWE-agent `.traj` of `steps` tiny steps (a text action and a one-line observation each): the run's `history`
 * as SWE-agent writes it, plus `trajectory` when `withSteps` (about 150 bytes a step without, 260 with).
 */
export function* sweAgentTrajectory(steps: number, seed = 31, withSteps = false): Generator<string> {
  const r = new Rng(seed);
  const actions = ['ls', 'pwd', 'git diff', 'python reproduce.py', 'open src/app.py', 'scroll_down'];
  yield '{"environment":"main","history":[';
  yield JSON.stringify({
    role: 'system',
    content: 'You are a helpful assistant.',
    agent: 'main',
    message_type: 'system_prompt',
  });
  yield `,${JSON.stringify({ role: 'user', content: 'Fix the failing test.', agent: 'main', message_type: 'observation' })}`;
  const picked: string[] = [];
  for (let i = 0; i < steps; i++) {
    const action = r.pick(actions);
    picked.push(action);
    yield `,{"role":"assistant","content":${JSON.stringify(action)},"action":${JSON.stringify(action)},"agent":"main","message_type":"action"}`;
    yield `,{"role":"user","content":"ok ${i}","agent":"main","message_type":"observation"}`;
  }
  yield '],"trajectory":[';
  if (withSteps)
    for (let i = 0; i < steps; i++)
      yield `${i > 0 ? ',' : ''}{"action":${JSON.stringify(picked[i])},"observation":"ok ${i}","response":"","thought":""}`;
  yield `],"info":{"exit_status":"submitted","model_stats":{"api_calls":${steps}}},"replay_config":{"agent":{"model":{"name":"gpt-4o"}}}}`;
}
