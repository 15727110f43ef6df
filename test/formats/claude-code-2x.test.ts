// Claude Code 2.x as it writes its logs (claude-code-batches.ts, claude-code-attachments.ts): one line per block
// of a response, each tool_result hanging off its own tool_use line (a fan of siblings), streamed calls written
// between their results, real rewinds still left behind, and attachment lines turned into the reminders Claude
// Code sends (or counted with why not). Plus the real 2.1 sessions that used to show false pairing errors.
import { describe, expect, it } from 'vitest';
import { fileFromText } from '../../src/formats/index.ts';
import type { Thread } from '../../src/model/transcript.ts';
import { validatePairing } from '../../src/pairing/validate.ts';
import { asst, envelope, jsonl, load, type Obj, result, text, toolUse, user } from '../helpers/claude-code-lines.ts';
import { describeWild, loadWild } from '../helpers/fixtures.ts';

const shape = (th: Thread) =>
  th.messages.map(
    (m) =>
      `${m.role[0]}:${m.blocks.map((b) => (b.type === 'tool_use' ? `use(${b.id})` : b.type === 'tool_result' ? `res(${b.toolUseId})` : b.type)).join(',')}`,
  );
const attachment = (uuid: string, parent: string, a: Obj): Obj => ({
  ...envelope(uuid, parent),
  type: 'attachment',
  attachment: a,
});
const inputErrors = (th: Thread) =>
  th.requests.flatMap((r) =>
    validatePairing(th.messages.slice(0, r.inputEnd), {
      thread: th.id,
      request: r.index,
      provider: 'anthropic',
      stage: 'input',
    }).filter((v) => v.severity === 'error'),
  );

describe('claude-code 2.x parallel batches', () => {
  it('a fan of tool_use lines, each result hanging off its own call: one assistant message, one results message', () => {
    const t = load(
      jsonl(
        user('u1', null, 'look at both files'),
        asst('a1', 'u1', 'm1', [text('Reading both.')]),
        asst('a2', 'a1', 'm1', [toolUse('T1')]),
        asst('a3', 'a2', 'm1', [toolUse('T2', 'Read', { file_path: 'b.ts' })]),
        user('r2', 'a3', [result('T2', 'b body')], { sourceToolAssistantUUID: 'a3' }),
        user('r1', 'a2', [result('T1', 'a body')], { sourceToolAssistantUUID: 'a2' }),
        asst('b1', 'r1', 'm2', [text('Both read.')]),
      ),
    );
    const th = t.threads[0];
    expect(shape(th)).toEqual(['u:text', 'a:text,use(T1),use(T2)', 'u:res(T2),res(T1)', 'a:text']);
    expect(th.messages[2].source.lines).toEqual([5, 6]); // the order Claude Code wrote them in
    expect(th.requests.map((r) => r.inputEnd)).toEqual([1, 3]);
    expect(t.meta.skipped).toBeUndefined(); // no sibling is mistaken for an abandoned branch
    expect(inputErrors(th)).toEqual([]);
  });

  it('calls streamed between their results (2.1 runs tools while the response streams) stay one response', () => {
    const t = load(
      jsonl(
        user('u1', null, 'go'),
        asst('a1', 'u1', 'm1', [{ type: 'thinking', thinking: '', signature: 's' }]),
        asst('a2', 'a1', 'm1', [toolUse('T1', 'Bash', { command: 'ls' })]),
        user('r1', 'a2', [result('T1')]),
        attachment('h1', 'r1', {
          type: 'hook_success',
          hookEvent: 'PostToolUse',
          hookName: 'PostToolUse:Bash',
          content: 'x',
        }),
        asst('a3', 'h1', 'm1', [toolUse('T2', 'Bash', { command: 'pwd' })]),
        user('r2', 'a3', [result('T2')]),
        asst('b1', 'r2', 'm2', [text('done')]),
      ),
    );
    const th = t.threads[0];
    expect(shape(th)).toEqual(['u:text', 'a:thinking,use(T1),use(T2)', 'u:res(T1),res(T2)', 'a:text']);
    expect(th.requests).toHaveLength(2);
    expect(t.meta.skipped).toEqual({ 'attachment:hook_success': 1 });
  });

  it('a real rewind is still left behind: another response (another message id) on an abandoned branch', () => {
    const t = load(
      jsonl(
        user('u1', null, 'first try'),
        asst('a1', 'u1', 'm1', [toolUse('T1')]),
        user('r1', 'a1', [result('T1')]),
        asst('a2', 'r1', 'm2', [text('old answer')]),
        user('u1b', null, 'second try'), // the user rewound and edited the prompt
        asst('b1', 'u1b', 'm3', [text('new answer')]),
      ),
    );
    expect(shape(t.threads[0])).toEqual(['u:text', 'a:text']);
    expect(t.meta.skipped).toEqual({ 'inactive-branch': 4 });
  });

  it('a line elsewhere with the same message id is not pulled into a batch (only what hangs off it is)', () => {
    const t = load(
      jsonl(
        user('x0', null, 'an older, unrelated branch'),
        asst('x1', 'x0', 'm1', [toolUse('T9')]), // same message id and request id as a1 below
        user('u1', null, 'q'),
        asst('a1', 'u1', 'm1', [toolUse('T1')]),
        user('r1', 'a1', [result('T1')]),
        asst('b1', 'r1', 'm2', [text('answer')]),
      ),
    );
    const main = t.threads[0];
    expect(shape(main)).toEqual(['u:text', 'a:use(T1)', 'u:res(T1)', 'a:text']);
  });
});

describe('claude-code attachment lines', () => {
  const session = (...atts: Obj[]) =>
    load(
      jsonl(user('u1', null, 'hello'), ...atts, asst('a1', atts.length ? `h${atts.length}` : 'u1', 'm1', [text('hi')])),
    );

  it('a SessionStart hook and a deferred-tools delta reach the model as <system-reminder> text in the prompt', () => {
    const t = session(
      attachment('h1', 'u1', {
        type: 'hook_success',
        hookEvent: 'SessionStart',
        hookName: 'SessionStart:startup',
        content: 'ready',
      }),
      attachment('h2', 'h1', {
        type: 'deferred_tools_delta',
        addedNames: ['WebFetch'],
        addedLines: ['WebFetch'],
        removedNames: [],
      }),
    );
    const prompt = t.threads[0].messages[0];
    expect(prompt.blocks.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual([
      'hello',
      '<system-reminder>\nSessionStart:startup hook success: ready\n</system-reminder>',
      expect.stringMatching(
        /^<system-reminder>\nThe following deferred tools are now available via ToolSearch\..*\nWebFetch\n<\/system-reminder>$/s,
      ),
    ]);
    expect(prompt.source.lines).toEqual([1, 2, 3]);
    expect(t.meta.skipped).toBeUndefined();
  });

  it('after a batch of results, a task reminder travels inside the results message (after the results)', () => {
    const t = load(
      jsonl(
        user('u1', null, 'go'),
        asst('a1', 'u1', 'm1', [toolUse('T1')]),
        user('r1', 'a1', [result('T1')]),
        attachment('h1', 'r1', {
          type: 'task_reminder',
          content: [{ id: '1', status: 'pending', subject: 'Ship it' }],
        }),
        asst('b1', 'h1', 'm2', [text('ok')]),
      ),
    );
    const m = t.threads[0].messages[2];
    expect(m.blocks[0].type).toBe('tool_result');
    expect(m.blocks[1]).toMatchObject({ type: 'text', text: expect.stringContaining('#1. [pending] Ship it') });
    expect(inputErrors(t.threads[0])).toEqual([]);
  });

  it('what Claude Code drops, what Tierscope cannot rebuild and unknown types are counted with why', () => {
    const t = session(
      attachment('h1', 'u1', {
        type: 'hook_success',
        hookEvent: 'PostToolUse',
        hookName: 'PostToolUse:Bash',
        content: 'x',
      }),
      attachment('h2', 'h1', { type: 'plan_mode', reminderType: 'full' }),
      attachment('h3', 'h2', { type: 'brand_new_kind' }),
      attachment('h4', 'h3', { type: 'skill_listing', content: '' }),
    );
    expect(t.threads[0].messages[0].blocks).toHaveLength(1);
    expect(t.meta.skipped).toEqual({
      'attachment:hook_success': 1,
      'attachment:plan_mode (not reconstructed)': 1,
      'attachment:brand_new_kind (unknown type)': 1,
      'attachment:skill_listing': 1,
    });
  });
});

describe('claude-code results the agent rewrote itself', () => {
  it('counts <persisted-output> previews and cleared results; their text is what was sent', () => {
    const preview =
      '<persisted-output>\nOutput too large (52.1KB). Full output saved to: /p/tool-results/x.txt\n\nPreview (first 2KB):\nabc\n</persisted-output>';
    const t = load(
      jsonl(
        user('u1', null, 'go'),
        asst('a1', 'u1', 'm1', [toolUse('T1', 'Bash', { command: 'cat big' }), toolUse('T2')]),
        user('r1', 'a1', [result('T1', preview), result('T2', [text('[Old tool result content cleared]')])]),
        asst('b1', 'r1', 'm2', [text('ok')]),
      ),
    );
    expect(t.meta.extra).toEqual({ persistedOutputs: 1, clearedByAgent: 1 });
    expect(t.threads[0].messages[2].blocks[0]).toMatchObject({ type: 'tool_result', content: preview });
  });
});

describe('claude-code 2.1 sub-agent .meta.json', () => {
  const side = jsonl(
    user('s1', null, 'Find the TODOs', { isSidechain: true, agentId: 'abc' }),
    asst('s2', 's1', 'ms', [text('none')], { isSidechain: true, agentId: 'abc' }),
  );
  const main = jsonl(user('u1', null, 'delegate'), asst('a1', 'u1', 'm1', [text('ok')]));

  it('titles the sub-agent "description (agentType)" from its .meta.json', () => {
    const t = load(main, [
      fileFromText('sess-1/subagents/agent-abc.jsonl', side),
      fileFromText('sess-1/subagents/agent-abc.meta.json', '{"agentType":"Explore","description":"Find TODOs"}'),
    ]);
    expect(t.threads.map((th) => [th.id, th.title])).toEqual([
      ['main', undefined],
      ['agent:abc', 'Find TODOs (Explore)'],
    ]);
  });

  it('a .meta.json that says nothing is reported and the thread keeps its id', () => {
    const t = load(main, [
      fileFromText('sess-1/subagents/agent-abc.jsonl', side),
      fileFromText('sess-1/subagents/agent-abc.meta.json', '[1, 2'),
    ]);
    expect(t.threads[1].title).toBeUndefined();
    expect(t.parseIssues).toEqual([
      expect.objectContaining({ file: 'sess-1/subagents/agent-abc.meta.json', severity: 'warning' }),
    ]);
  });
});

describeWild('claude-code 2.1 sessions from the wild', () => {
  it('ef958aa1 (2.1.114, parallel and streamed calls, 6 sub-agents): every call answered, no input pairing error', () => {
    const t = loadWild('claude-code/projects/ccl--experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl');
    const calls = t.threads.flatMap((th) => th.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'tool_use')));
    const results = t.threads.flatMap((th) =>
      th.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'tool_result')),
    );
    expect(calls).toHaveLength(117);
    expect(results).toHaveLength(117);
    for (const th of t.threads) expect(inputErrors(th)).toEqual([]);
    // One response (lines 44–56): three TaskUpdate calls answered on the walk (46, 49, 52), then three Agent
    // calls, two of them off the parentUuid walk, answered by 57 and 61 (off the walk) and 63: one batch.
    const main = t.threads[0];
    const batch = main.messages.find((m) => m.source.lines?.includes(54));
    expect(batch?.source.lines).toEqual(expect.arrayContaining([54, 55, 56]));
    expect(batch?.blocks.filter((b) => b.type === 'tool_use')).toHaveLength(6);
    expect(main.messages[(batch?.index ?? 0) + 1].source.lines).toEqual([46, 49, 52, 57, 61, 63]);
    expect(t.meta.skipped?.['inactive-branch']).toBeUndefined();
  });

  it('29ccd257 (2.1.17): the sub-agent’s parallel reads are one batch each; no input pairing error', () => {
    const t = loadWild('claude-code/projects/ccl--src-experiments-claude_p/29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl');
    for (const th of t.threads) expect(inputErrors(th)).toEqual([]);
    expect(t.threads.map((th) => th.kind)).toEqual(['main', 'sidechain']);
  });
});
