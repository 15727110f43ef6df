// Tests for the claude-code parser: the real fixtures (counts checked against PROVENANCE.md and an independent
// file-order count of each file), plus small inline JSONL sessions for each rule: active branch, split
// responses, parallel results, compaction, sidechains, companion files, bad lines and skipped line types.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeCodeParser } from '../../src/formats/claude-code.ts';
import { fileFromBytes, fileFromText, parseTranscript } from '../../src/formats/index.ts';
import type { Block, Thread, Transcript } from '../../src/model/transcript.ts';
import {
  asst,
  envelope,
  jsonl,
  load,
  type Obj,
  result,
  SESSION,
  text,
  toolUse,
  user,
} from '../helpers/claude-code-lines.ts';
import { describeReal, loadReal, realPath } from '../helpers/fixtures.ts';

// ---------------------------------------------------------------------------------------------------
// Helpers

const texts = (t: Thread) =>
  t.messages.map((m) => m.blocks.map((b) => (b.type === 'text' ? b.text : b.type)).join('+'));
const blocksOf = (t: Thread, type: Block['type']) => t.messages.flatMap((m) => m.blocks).filter((b) => b.type === type);
const errors = (t: Transcript) => t.parseIssues.filter((i) => i.severity === 'error');

/** Structural invariants every parsed thread must satisfy. */
function expectIntegrity(t: Transcript): void {
  for (const th of t.threads) {
    th.messages.forEach((m, i) => {
      expect(m.index).toBe(i);
    });
    th.requests.forEach((r, i) => {
      expect(r.index).toBe(i);
      expect(r.thread).toBe(th.id);
      expect(th.messages[r.inputEnd].role).toBe('assistant');
      expect(r.responseEnd).toBe(r.inputEnd + 1);
      if (i > 0) expect(r.inputEnd).toBeGreaterThan(th.requests[i - 1].inputEnd);
    });
    // Every tool_result answers a tool_use that came earlier in the same thread.
    const seen = new Set<string>();
    for (const m of th.messages) {
      for (const b of m.blocks) {
        if (b.type === 'tool_result') expect(seen.has(b.toolUseId), `${th.id}: result ${b.toolUseId}`).toBe(true);
      }
      for (const b of m.blocks) if (b.type === 'tool_use') seen.add(b.id);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Real fixtures

type Expected = {
  threads: {
    id?: string;
    kind: string;
    messages: number;
    requests: number;
    observed: number;
    tu: number;
    tr: number;
  }[];
};

const REAL: Record<string, Expected> = {
  // 438 lines: 32 main + 405 sidechain (5 Task sub-agents) + 1 summary; 170 distinct message.ids; 167 tool_use.
  'claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl': {
    threads: [
      { kind: 'main', messages: 19, requests: 9, observed: 9, tu: 11, tr: 11 },
      { kind: 'sidechain', messages: 18, requests: 9, observed: 9, tu: 8, tr: 8 },
      { kind: 'sidechain', messages: 68, requests: 34, observed: 34, tu: 33, tr: 33 },
      { kind: 'sidechain', messages: 80, requests: 40, observed: 40, tu: 39, tr: 39 },
      { kind: 'sidechain', messages: 50, requests: 25, observed: 25, tu: 24, tr: 24 },
      { kind: 'sidechain', messages: 106, requests: 53, observed: 53, tu: 52, tr: 52 },
    ],
  },
  // 53 lines (31 main, 22 sidechain); 21 tool_use.
  'claude-code/ccviewer-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl': {
    threads: [
      { kind: 'main', messages: 21, requests: 10, observed: 10, tu: 13, tr: 13 },
      { kind: 'sidechain', messages: 6, requests: 3, observed: 3, tu: 2, tr: 2 },
      { kind: 'sidechain', messages: 14, requests: 7, observed: 7, tu: 6, tr: 6 },
    ],
  },
  // 29 lines; 12 tool_use.
  'claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl': {
    threads: [{ kind: 'main', messages: 15, requests: 7, observed: 7, tu: 12, tr: 12 }],
  },
  'claude-code/synthetic-ccviewer-agent-test-hash-123.jsonl': {
    threads: [{ kind: 'main', messages: 2, requests: 1, observed: 1, tu: 0, tr: 0 }],
  },
  'claude-code/synthetic-agentsessions-claude-linetypes.jsonl': {
    threads: [
      // main: the 7 reminders its attachment lines sent (claude-code-attachments.ts) form one meta user message.
      { id: 'main', kind: 'main', messages: 4, requests: 1, observed: 1, tu: 0, tr: 0 },
      { id: 'sidechain:sys1', kind: 'sidechain', messages: 5, requests: 2, observed: 0, tu: 1, tr: 1 },
    ],
  },
  'claude-code/synthetic-agentsessions-subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl': {
    threads: [
      { id: 'main', kind: 'main', messages: 2, requests: 1, observed: 0, tu: 1, tr: 0 },
      { id: 'agent:a0ad4f44468bdf20d', kind: 'sidechain', messages: 3, requests: 1, observed: 0, tu: 1, tr: 1 },
    ],
  },
};

describeReal('claude-code real fixtures', () => {
  for (const [rel, want] of Object.entries(REAL)) {
    describe(rel.replace('claude-code/', ''), () => {
      const t = loadReal(rel);

      it('loads with no error-severity issues and sound threads', () => {
        expect(t.format).toBe('claude-code');
        expect(errors(t)).toEqual([]);
        expectIntegrity(t);
      });

      it('has the verified thread, message, request and block counts', () => {
        const got = t.threads.map((th) => ({
          ...(want.threads.some((w) => w.id) ? { id: th.id } : {}),
          kind: th.kind,
          messages: th.messages.length,
          requests: th.requests.length,
          observed: th.requests.filter((r) => r.observed).length,
          tu: blocksOf(th, 'tool_use').length,
          tr: blocksOf(th, 'tool_result').length,
        }));
        expect(got).toEqual(want.threads);
      });

      it('is detected by content and parses the same as with an explicit format', () => {
        expect(JSON.stringify(loadReal(rel, { format: 'claude-code' }))).toBe(JSON.stringify(t));
      });
    });
  }

  describe('fe5e1c67 (1.0.98, inline sidechains)', () => {
    const t = loadReal('claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
    const main = t.threads[0];

    it('keeps 170 distinct API responses across main and sidechains, with 23 error results', () => {
      expect(t.threads.reduce((n, th) => n + th.requests.length, 0)).toBe(170);
      const results = t.threads.flatMap((th) => blocksOf(th, 'tool_result'));
      expect(results.filter((b) => b.type === 'tool_result' && b.isError)).toHaveLength(23);
    });

    it('links each sidechain to its Task call by prompt, with the Task description as title', () => {
      expect(t.threads.slice(1).map((th) => [th.parentToolUseId, th.title])).toEqual([
        ['toolu_01LS6tcVd796SbQKmZqeVnWY', 'Build TODO components'],
        ['toolu_014i9ThHMNShCHocf9xMKasf', 'Setup Next.js project'],
        ['toolu_01EbxY94wRUAGyMLj5wh699C', 'Create data models'],
        ['toolu_017rjDpjVPeNFmAEXNTkoP55', 'Implement state management'],
        ['toolu_01EPom7jESzNbU8coiKjzVGS', 'Create main page integration'],
      ]);
      const taskIds = blocksOf(main, 'tool_use').flatMap((b) =>
        b.type === 'tool_use' && b.name === 'Task' ? [b.id] : [],
      );
      expect(taskIds.sort()).toEqual(
        t.threads
          .slice(1)
          .map((th) => th.parentToolUseId)
          .sort(),
      );
    });

    it('merges split assistant lines into one response with the largest usage', () => {
      // Lines 12-15 share message.id …qRsCgA: text + 3 Task calls; output_tokens 1,1,1,598.
      const m = main.messages[6];
      expect(m.source).toMatchObject({ line: 12, lines: [12, 13, 14, 15] });
      expect(m.blocks.map((b) => b.type)).toEqual(['text', 'tool_use', 'tool_use', 'tool_use']);
      const r = main.requests[2];
      expect(r).toMatchObject({ inputEnd: 6, responseEnd: 7, line: 12, model: 'claude-sonnet-4-20250514' });
      expect(r.observed).toEqual({ input: 6, cacheRead: 16440, cacheWrite: 304, cacheWrite1h: 0, output: 598 });
      expect(r.requestId).toMatch(/^req_/);
      expect(r.responseTime).toBeGreaterThan(r.time ?? Number.POSITIVE_INFINITY);
    });

    it('merges the three parallel Task results (written with sidechains between them) into one user message', () => {
      expect(main.messages[7].source.lines).toEqual([37, 124, 223]);
      expect(main.messages[7].blocks.map((b) => (b.type === 'tool_result' ? b.toolUseId.slice(-6) : b.type))).toEqual([
        'qeVnWY',
        'xMKasf',
        'wh699C',
      ]);
    });

    it('reads meta: session, version, and the summary line as title', () => {
      expect(t.meta).toMatchObject({
        sessionId: 'fe5e1c67-53e7-4862-81ae-d0e013e3270b',
        version: '1.0.98',
        title: 'Empty Repo Setup: CLAUDE.md Foundation Created',
      });
      expect(t.meta.skipped).toBeUndefined();
      expect(main.messages[1].meta).toBe(true);
    });
  });

  describe('5c0375b4 (1.0.108)', () => {
    const t = loadReal('claude-code/ccviewer-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');

    it('links the two sidechains; the Task call without a prompt (rejected by validation) has none', () => {
      expect(t.threads.slice(1).map((th) => [th.parentToolUseId, th.title])).toEqual([
        ['toolu_014YF9TXhDRR7BnpasNJ7gjC', 'Check package configuration'],
        ['toolu_01LKfUwrsnof18CpWZQcJH44', 'Analyze current project structure'],
      ]);
    });

    it('merges the results of one response written around a sidechain', () => {
      expect(t.threads[0].messages[7].source.lines).toEqual([15, 23, 24]);
    });
  });

  it('1af7fc5e: five parallel results (written out of order) form one message', () => {
    const main = loadReal('claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl').threads[0];
    expect(main.messages[4].source.lines).toEqual([6, 7, 8, 9, 10]);
    expect(main.messages[5].source.lines).toEqual([11, 12, 13, 14, 15]);
    expect(main.requests[1].observed?.output).toBe(285);
  });

  it('agent-test-hash: a sub-agent file on its own loads its chain as the main thread', () => {
    const t = loadReal('claude-code/synthetic-ccviewer-agent-test-hash-123.jsonl');
    expect(t.threads.map((th) => th.kind)).toEqual(['main']);
    expect(t.meta).toMatchObject({ sessionId: '5c0375b4-57a5-4f26-b12d-d022ee4e51b7', version: '2.0.28' });
    expect(t.threads[0].requests[0].model).toBe('claude-sonnet-4-20250514');
  });

  describe('linetypes (2.1.x, ~30 line types)', () => {
    const t = loadReal('claude-code/synthetic-agentsessions-claude-linetypes.jsonl');

    it('counts every non-conversation line kind in meta.skipped', () => {
      expect(t.meta.skipped).toEqual({
        'agent-name': 1,
        'atis-latch': 1,
        // Attachments on the active branches that reached no message: dropped by Claude Code, or sent with a
        // text Tierscope does not rebuild, or of a type it does not know (7 more were sent: see main above).
        'attachment:auto_mode (not reconstructed)': 2,
        'attachment:batching_reminder_sent (unknown type)': 1,
        'attachment:plan_mode (not reconstructed)': 1,
        'attachment:hook_non_blocking_error': 1,
        'attachment:silent_turn_reminder (unknown type)': 1,
        'attachment:ultra_effort_enter (unknown type)': 1,
        'attachment:ultra_effort_exit (unknown type)': 1,
        'attachment:total_tokens_reminder (unknown type)': 1,
        'bridge-session': 1,
        'file-history-snapshot': 1,
        'frame-link': 1,
        mode: 1,
        'permission-mode': 1,
        'pr-link': 1,
        progress: 1,
        'queue-operation': 1,
        relocated: 1,
        result: 1,
        started: 1,
        'system:api_error': 4,
        'system:api_refusal': 1,
        'system:error': 1,
        'system:model_refusal_fallback': 1,
        'system:session_start': 1,
        'system:stop_hook_summary': 1,
        'system:turn_duration': 1,
        'worktree-state': 2,
        // Off both active branches: conversation lines (u2b, a2 superseded by a3, a-nested-1, u-nested-1, user and
        // assistant lines of the placeholder-uuid region before the null-parent user line 63, 2 compact_boundary
        // lines) and the attachment lines that hang off them. The 2 attachments after the main branch's last line
        // belong to that branch (no request carried them) and are counted by their own type above.
        'inactive-branch': 33,
      });
    });

    it('reads title, version and session; flags the shared placeholder uuid', () => {
      expect(t.meta).toMatchObject({
        title: 'Stage0 small fixture',
        version: '2.1.220',
        sessionId: 'ses_stage0_small',
      });
      expect(t.parseIssues.some((i) => i.line === 42 && /used by 45 lines/.test(i.message))).toBe(true);
    });

    it('takes the newest branch of the sidechain (a3 supersedes a2) and marks the compact summary', () => {
      const side = t.threads[1];
      expect(side.messages.map((m) => m.source.uuid)).toEqual(['u1', 'a1', 'u2', 'a3', 'u3']);
      expect(side.messages[4].compaction).toBe('summary');
      expect(side.messages[2].meta).toBe(true);
    });
  });

  it('subagent layout: the subagents/ file becomes a sidechain thread from that file', () => {
    const t = loadReal('claude-code/synthetic-agentsessions-subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl');
    const side = t.threads[1];
    const file = '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f/subagents/agent-a0ad4f44468bdf20d.jsonl';
    expect(side.messages.map((m) => m.source.file)).toEqual([file, file, file]);
    expect(texts(side)).toEqual(['Search the repo for TODO comments', 'Searching.+tool_use', 'tool_result']);
    // The SubagentStop hook line follows the sub-agent's last result: it belongs to the branch, and a successful
    // hook's output is not sent to the model.
    expect(t.meta.skipped).toEqual({ 'system:session_start': 1, 'attachment:hook_success': 1 });
    // The synthetic files omit tool ids: reported as warnings, not errors.
    expect(t.parseIssues.filter((i) => i.file === file).map((i) => i.line)).toEqual([2, 3]);
  });

  it('sniff rejects the other formats’ real files', () => {
    const others = [
      'claude-trace/lemmy-test-traffic.redacted.jsonl',
      'codex/simonw-codex-0.77-homelab.jsonl',
      'codex/synthetic-agentsessions-codex-itemtypes.jsonl',
      'openai-chat/inspect-browser-gpt4o-mini.chat-completions.jsonl',
      'inspect/inspect-browser-gpt4o-mini.json',
      'swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj',
    ];
    for (const rel of others) {
      const raw = readFileSync(realPath(rel), 'utf8');
      const lines = raw
        .split('\n')
        .filter((l) => l.trim())
        .slice(0, 20)
        .map((l) => {
          try {
            return JSON.parse(l) as unknown;
          } catch {
            return undefined;
          }
        });
      expect(claudeCodeParser.sniff({ fileName: rel, lines, doc: undefined }), rel).toBe(false);
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// Repo-own inline sessions

describe('claude-code sniff', () => {
  const head = (...lines: unknown[]) => ({ fileName: 'x.jsonl', lines, doc: undefined });

  it('accepts session lines, summary heads and snapshot heads', () => {
    expect(claudeCodeParser.sniff(head(user('u1', null, 'hi')))).toBe(true);
    expect(claudeCodeParser.sniff(head({ type: 'summary', summary: 'Title', leafUuid: 'x' }))).toBe(true);
    const snap = {
      type: 'file-history-snapshot',
      messageId: 'm',
      snapshot: { messageId: 'm', trackedFileBackups: {} },
    };
    expect(claudeCodeParser.sniff(head(snap))).toBe(true);
  });

  it('rejects other formats and junk without throwing', () => {
    const trace = { request: { url: 'https://api.anthropic.com/v1/messages' }, response: {}, logged_at: 'x' };
    const codex = { timestamp: 't', type: 'response_item', payload: { type: 'message' } };
    const chat = { request: { messages: [] }, response: { choices: [] } };
    const sdk = { type: 'system', subtype: 'init', session_id: 's', uuid: 'u' };
    const noSession = { type: 'user', uuid: 'u', message: { role: 'user', content: 'x' } };
    for (const v of [trace, codex, chat, sdk, noSession, undefined, null, 3, 'user', [], { type: 'user' }]) {
      expect(claudeCodeParser.sniff(head(v))).toBe(false);
    }
  });

  it('is picked by auto-detection', () => {
    expect(load(jsonl(user('u1', null, 'hi')), [], true).format).toBe('claude-code');
  });
});

describe('claude-code active branch', () => {
  const base = [
    user('u1', null, 'first'),
    asst('a1', 'u1', 'm1', [text('one')]),
    user('u2', 'a1', 'second'),
    asst('a2', 'u2', 'm2', [text('two')]),
  ];

  it('follows the newest leaf after a rewind; the abandoned turns are counted', () => {
    const t = load(jsonl(...base, user('u2b', 'a1', 'second, edited'), asst('a2b', 'u2b', 'm3', [text('two b')])));
    expect(texts(t.threads[0])).toEqual(['first', 'one', 'second, edited', 'two b']);
    expect(t.threads[0].requests.map((r) => r.inputEnd)).toEqual([1, 3]);
    expect(t.meta.skipped).toEqual({ 'inactive-branch': 2 });
    expectIntegrity(t);
  });

  it('takes the leafUuid of a last-prompt line written after the newest line', () => {
    const t = load(
      jsonl(...base, user('u2b', 'a1', 'edited'), { type: 'last-prompt', sessionId: SESSION, leafUuid: 'a2' }),
    );
    expect(texts(t.threads[0])).toEqual(['first', 'one', 'second', 'two']);
  });

  it('ignores a leafUuid written before newer lines, or pointing to another file', () => {
    const stale = { type: 'summary', summary: 'Old', leafUuid: 'a2' };
    const elsewhere = { type: 'summary', summary: 'Other session', leafUuid: 'not-here' };
    const t = load(jsonl(stale, ...base, user('u2b', 'a1', 'edited'), elsewhere));
    expect(texts(t.threads[0])).toEqual(['first', 'one', 'edited']);
    expect(t.meta.title).toBe('Old');
  });

  it('chains through non-message lines (attachments, system) without making them messages', () => {
    const att = { ...envelope('att1', 'a1'), type: 'attachment', attachment: { type: 'hook_success' } };
    const dur = { ...envelope('sys1', 'att1'), type: 'system', subtype: 'turn_duration', durationMs: 5 };
    const t = load(
      jsonl(user('u1', null, 'q'), asst('a1', 'u1', 'm1', [text('a')]), att, dur, user('u2', 'sys1', 'next')),
    );
    expect(texts(t.threads[0])).toEqual(['q', 'a', 'next']);
    // A hook_success of no SessionStart/UserPromptSubmit hook is not sent (claude-code-attachments.ts).
    expect(t.meta.skipped).toEqual({ 'attachment:hook_success': 1, 'system:turn_duration': 1 });
  });
});

describe('claude-code split responses and parallel results', () => {
  const lines = [
    user('u1', null, 'go'),
    user('u1m', 'u1', [text('<command-message>caveat</command-message>')], { isMeta: true }),
    asst('a1', 'u1m', 'm1', [{ type: 'thinking', thinking: 'hmm', signature: 's' }], {}, 2),
    asst('a2', 'a1', 'm1', [toolUse('T1')], {}, 40),
    asst('a3', 'a2', 'm1', [toolUse('T2', 'Grep', { pattern: 'x' })], {}, 40),
    user('r1', 'a3', [result('T2', 'grep out')]),
    user('r2', 'r1', [result('T1', [text('file body')])]),
    user('u2', 'r2', 'thanks'),
    asst('a4', 'u2', 'm2', [text('done')], {}, 7),
  ];

  it('merges one response into one message and one request, and parallel results into one message', () => {
    const t = load(jsonl(...lines));
    const th = t.threads[0];
    expect(texts(th)).toEqual([
      'go',
      '<command-message>caveat</command-message>',
      'thinking+tool_use+tool_use',
      'tool_result+tool_result',
      'thanks',
      'done',
    ]);
    expect(th.messages[1].meta).toBe(true);
    expect(th.messages[2].source).toEqual({ line: 3, uuid: 'a1', shape: 'native', lines: [3, 4, 5] });
    expect(th.messages[3].source.lines).toEqual([6, 7]);
    expect(th.requests).toHaveLength(2);
    const [r0, r1] = th.requests;
    expect(r0).toMatchObject({ inputEnd: 2, responseEnd: 3, line: 3, requestId: 'req_m1', model: 'claude-x' });
    expect(r0.observed).toEqual({ input: 3, cacheRead: 1000, cacheWrite: 10, output: 40 });
    expect(r0.time).toBe(th.messages[2].time);
    expect((r0.responseTime ?? 0) - (r0.time ?? 0)).toBe(2000);
    expect(r1).toMatchObject({ inputEnd: 5, responseEnd: 6 });
    expectIntegrity(t);
  });

  it('merges a response whose split lines have results written between them', () => {
    const t = load(
      jsonl(
        user('u1', null, 'go'),
        asst('a1', 'u1', 'm1', [toolUse('T1')]),
        user('r1', 'a1', [result('T1')]),
        asst('a2', 'r1', 'm1', [toolUse('T2')]),
        user('r2', 'a2', [result('T2')]),
      ),
    );
    expect(texts(t.threads[0])).toEqual(['go', 'tool_use+tool_use', 'tool_result+tool_result']);
    expect(t.threads[0].requests).toHaveLength(1);
    expectIntegrity(t);
  });

  it('does not duplicate a block when a split line is written twice', () => {
    const t = load(
      jsonl(
        user('u1', null, 'go'),
        asst('a1', 'u1', 'm1', [text('part one')]),
        asst('a2', 'a1', 'm1', [text('part one')]),
        asst('a3', 'a2', 'm1', [toolUse('T1')]),
      ),
    );
    expect(texts(t.threads[0])).toEqual(['go', 'part one+tool_use']);
    expect(t.threads[0].messages[1].source.lines).toEqual([2, 3, 4]);
  });

  it('drops only exact copies: a call written again with the same id but other input stays', () => {
    const t = load(
      jsonl(
        user('u1', null, 'go'),
        asst('a1', 'u1', 'm1', [toolUse('T1', 'Grep', { pattern: 'x' })]),
        asst('a2', 'a1', 'm1', [toolUse('T1', 'Grep', { pattern: 'x' })]),
        asst('a3', 'a2', 'm1', [toolUse('T1', 'Grep', { pattern: 'y' })]),
        asst('a4', 'a3', 'm1', [text('part one'), text('part one')]),
      ),
    );
    const blocks = t.threads[0].messages[1].blocks;
    expect(blocks.map((b) => (b.type === 'tool_use' ? b.input : b.type))).toEqual([
      { pattern: 'x' },
      { pattern: 'y' },
      'text',
    ]);
  });

  it('keeps "<synthetic>" assistant messages as messages but not requests; marks interrupted results', () => {
    const synth = asst('a2', 'r1', 'm9', [text('API Error: overloaded')]);
    (synth.message as Obj).model = '<synthetic>';
    const t = load(
      jsonl(
        user('u1', null, 'go'),
        asst('a1', 'u1', 'm1', [toolUse('T1', 'Bash', { command: 'sleep 100' })]),
        user('r1', 'a1', [result('T1', [text('[Request interrupted by user for tool use]')], true)]),
        synth,
      ),
    );
    const th = t.threads[0];
    expect(th.messages.map((m) => [m.role, m.synthetic ?? false])).toEqual([
      ['user', false],
      ['assistant', false],
      ['user', true],
      ['assistant', true],
    ]);
    expect(th.requests.map((r) => r.inputEnd)).toEqual([1]);
  });
});

describe('claude-code compaction', () => {
  it('turns compact_boundary + isCompactSummary into a summary message and a boundary request', () => {
    const boundary = {
      ...envelope('b1', null),
      type: 'system',
      subtype: 'compact_boundary',
      logicalParentUuid: 'a1',
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'auto', preTokens: 150000 },
    };
    const summary = user('s1', 'b1', 'This session is being continued from a previous conversation…', {
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
    });
    const t = load(
      jsonl(
        user('u1', null, 'old question'),
        asst('a1', 'u1', 'm1', [text('old answer')]),
        boundary,
        summary,
        user('u2', 's1', 'new question'),
        asst('a2', 'u2', 'm2', [text('new answer')]),
        asst('a3', 'a2', 'm3', [text('more')]),
      ),
    );
    const th = t.threads[0];
    expect(texts(th)).toEqual([
      'old question',
      'old answer',
      'This session is being continued from a previous conversation…',
      'new question',
      'new answer',
      'more',
    ]);
    expect(th.messages.map((m) => m.compaction)).toEqual([
      undefined,
      undefined,
      'summary',
      undefined,
      undefined,
      undefined,
    ]);
    expect(th.requests.map((r) => [r.inputEnd, r.boundary])).toEqual([
      [1, undefined],
      [4, 'agent-compaction'],
      [5, undefined],
    ]);
    expect(t.meta.skipped).toBeUndefined();
  });
});

describe('claude-code compaction without a logical parent', () => {
  it('links a compact_boundary that lacks logicalParentUuid to the line before it, with a warning', () => {
    const boundary = { ...envelope('b1', null), type: 'system', subtype: 'compact_boundary', content: 'compacted' };
    const t = load(
      jsonl(
        user('u1', null, 'old'),
        asst('a1', 'u1', 'm1', [text('old answer')]),
        boundary,
        user('s1', 'b1', 'Summary.', { isCompactSummary: true }),
        asst('a2', 's1', 'm2', [text('new answer')]),
      ),
    );
    expect(texts(t.threads[0])).toEqual(['old', 'old answer', 'Summary.', 'new answer']);
    expect(t.threads[0].requests.map((r) => r.boundary)).toEqual([undefined, 'agent-compaction']);
    expect(t.parseIssues).toEqual([expect.objectContaining({ line: 3, severity: 'warning' })]);
  });
});

describe('claude-code sidechains', () => {
  const side = (uuid: string, parent: string | null, kind: 'user' | 'assistant', content: unknown, id = '') =>
    kind === 'user'
      ? user(uuid, parent, content, { isSidechain: true })
      : asst(uuid, parent, id, content as unknown[], { isSidechain: true });
  const task = (id: string, description: string, prompt: string) =>
    toolUse(id, 'Task', { description, prompt, subagent_type: 'general-purpose' });

  it('groups interleaved inline sidechains by root and links them to their Task calls', () => {
    const t = load(
      jsonl(
        user('u1', null, 'build it'),
        asst('a1', 'u1', 'm1', [task('TA', 'Write tests', 'Write the tests')]),
        asst('a2', 'a1', 'm1', [task('TB', 'Write docs', 'Write the docs')]),
        side('sb1', null, 'user', 'Write the docs'),
        side('sa1', null, 'user', 'Write the tests'),
        side('sa2', 'sa1', 'assistant', [toolUse('X1')], 'ma1'),
        side('sb2', 'sb1', 'assistant', [text('docs done')], 'mb1'),
        side('sa3', 'sa2', 'user', [result('X1')]),
        side('sa4', 'sa3', 'assistant', [text('tests done')], 'ma2'),
        user('r1', 'a2', [result('TA', 'tests done')]),
        user('r2', 'r1', [result('TB', 'docs done')]),
      ),
    );
    expect(t.threads.map((th) => [th.id, th.kind, th.parentToolUseId, th.title])).toEqual([
      ['main', 'main', undefined, undefined],
      ['sidechain:sb1', 'sidechain', 'TB', 'Write docs'],
      ['sidechain:sa1', 'sidechain', 'TA', 'Write tests'],
    ]);
    expect(texts(t.threads[1])).toEqual(['Write the docs', 'docs done']);
    expect(texts(t.threads[2])).toEqual(['Write the tests', 'tool_use', 'tool_result', 'tests done']);
    expect(t.threads[0].messages.map((m) => m.source.lines)).toEqual([undefined, [2, 3], [10, 11]]);
    expectIntegrity(t);
  });

  it('reads companion files: nested subagents/ files, and sibling agent files of the same session only', () => {
    const mainText = jsonl(
      user('u1', null, 'delegate'),
      asst('a1', 'u1', 'm1', [task('TA', 'Search', 'Find TODOs')]),
      user('r1', 'a1', [result('TA', 'found')], { toolUseResult: { status: 'completed', agentId: 'abc' } }),
    );
    const nested = jsonl(
      user('c1', null, 'Find TODOs (as rewritten)', { isSidechain: true, agentId: 'abc', sessionId: 'agent-abc' }),
      asst('c2', 'c1', 'mc', [text('found')], { isSidechain: true, agentId: 'abc', sessionId: 'agent-abc' }),
      '{"broken',
    );
    const sibling = jsonl(user('d1', null, 'Other task', { isSidechain: true }));
    const foreign = jsonl(user('e1', null, 'Not ours', { isSidechain: true, sessionId: 'someone-else' }));
    const t = load(mainText, [
      fileFromText(`${SESSION}/subagents/agent-abc.jsonl`, nested),
      fileFromText('agent-def.jsonl', sibling),
      fileFromText('agent-xyz.jsonl', foreign),
    ]);
    expect(t.threads.map((th) => [th.id, th.parentToolUseId, th.title, th.messages.length])).toEqual([
      ['main', undefined, undefined, 3],
      ['agent:abc', 'TA', 'Search', 2],
      ['agent:def', undefined, undefined, 1],
    ]);
    expect(t.threads[1].messages[0].source.file).toBe(`${SESSION}/subagents/agent-abc.jsonl`);
    expect(t.parseIssues).toEqual([
      expect.objectContaining({ file: `${SESSION}/subagents/agent-abc.jsonl`, line: 3, severity: 'error' }),
    ]);
  });

  it("keeps a sibling agent file by its first user or assistant line's string sessionId, and reads another session's no further", () => {
    const mainText = jsonl(user('u1', null, 'delegate'));
    // Ours, though its first lines are broken, a summary, and a user line whose sessionId is not a string.
    const ours = jsonl(
      '{"broken',
      { type: 'summary', summary: 'x', leafUuid: 'd1', sessionId: 'someone-else' },
      user('d0', null, 'Not a string id', { isSidechain: true, sessionId: 7 }),
      user('d1', 'd0', 'Ours', { isSidechain: true }),
    );
    // Another session's, long: only its head is read (chunks of 1 KB; the line reader holds the first 64 KB).
    const filler = user('f2', 'f1', 'x'.repeat(900), { isSidechain: true, sessionId: 'someone-else' });
    const theirs = jsonl(
      user('f1', null, 'Not ours', { isSidechain: true, sessionId: 'someone-else' }),
      ...Array.from({ length: 400 }, () => filler),
      '{"broken',
    );
    const bytes = new TextEncoder().encode(theirs);
    let pulled = 0;
    const counted = {
      name: 'agent-xyz.jsonl',
      size: bytes.length,
      *chunks() {
        for (let at = 0; at < bytes.length; at += 1024) {
          pulled++;
          yield bytes.subarray(at, at + 1024);
        }
      },
    };
    const t = load(mainText, [fileFromText('agent-def.jsonl', ours), counted]);
    expect(t.threads.map((th) => [th.id, texts(th)])).toEqual([
      ['main', ['delegate']],
      ['agent:def', ['Not a string id', 'Ours']],
    ]);
    expect(t.parseIssues.map((i) => [i.file, i.line, i.severity])).toEqual([['agent-def.jsonl', 1, 'error']]);
    expect(pulled).toBeLessThan(bytes.length / 1024 / 2);
  });

  it("loads a followed session whose sibling agent files grew as a fresh load does, holding only the head of another session's", () => {
    const mainText = jsonl(user('u1', null, 'delegate'));
    const ours = [
      user('d1', null, 'Ours', { isSidechain: true }),
      asst('d2', 'd1', 'md', [text('one')], { isSidechain: true }),
    ];
    const theirs = [
      user('f1', null, 'Not ours', { isSidechain: true, sessionId: 'someone-else' }),
      user('f2', 'f1', 'more', { isSidechain: true, sessionId: 'someone-else' }),
    ];
    const grownOurs = [...ours, user('d3', 'd2', 'again', { isSidechain: true })];
    const grownTheirs = [...theirs, user('f3', 'f2', 'and more', { isSidechain: true, sessionId: 'someone-else' })];
    const files = (a: Obj[], b: Obj[]) => [
      fileFromText('agent-def.jsonl', jsonl(...a)),
      fileFromText('agent-xyz.jsonl', jsonl(...b)),
    ];
    const main = () => fileFromText(`${SESSION}.jsonl`, mainText);
    const heldExtras = new Map();
    const first = parseTranscript(main(), files(ours, theirs), { heldExtras });
    const grown = parseTranscript(main(), files(grownOurs, grownTheirs), { heldExtras });
    const fresh = parseTranscript(main(), files(grownOurs, grownTheirs));
    expect(first.ok && grown.ok && fresh.ok).toBe(true);
    if (!grown.ok || !fresh.ok) return;
    expect(grown.transcript).toEqual(fresh.transcript);
    expect(texts(grown.transcript.threads[1])).toEqual(['Ours', 'one', 'again']);
    expect(heldExtras.get('agent-def.jsonl')?.lines).toHaveLength(3);
    expect(heldExtras.get('agent-xyz.jsonl')?.lines).toHaveLength(1);
  });
});

describe('claude-code bad input', () => {
  it('reports invalid UTF-8 in a companion file with the file name and byte offset', () => {
    const line = new TextEncoder().encode(`${JSON.stringify(user('c1', null, 'hi ?', { isSidechain: true }))}\n`);
    line[line.indexOf(0x3f)] = 0xff; // the "?" becomes an invalid byte
    const name = `${SESSION}/subagents/agent-u8.jsonl`;
    const t = load(jsonl(user('u1', null, 'go')), [fileFromBytes(name, line)]);
    expect(t.parseIssues).toEqual([
      expect.objectContaining({ file: name, line: 1, severity: 'warning', byteOffset: line.indexOf(0xff) }),
    ]);
    expect(texts(t.threads[1])).toEqual(['hi \ufffd']);
  });

  it('reports a bad line and a truncated last line with line numbers; the rest loads and stays chained', () => {
    const good = jsonl(
      user('u1', null, 'q1'),
      asst('a1', 'u1', 'm1', [text('a1')]),
      '{"type":"user","uuid":"u2","parentUuid":"a1", oops',
      asst('a2', 'u2', 'm2', [text('a2')]),
      user('u3', 'a2', 'q3'),
    );
    const t = load(`${good}{"type":"assistant","uuid":"a3","parentUuid":"u3","message":{"id":"m3","con`);
    const issues = [...t.parseIssues].sort((a, b) => a.line - b.line);
    expect(issues.map((i) => [i.line, i.severity])).toEqual([
      [3, 'error'],
      [4, 'warning'], // parentUuid u2 was on the lost line: bridged to the previous line
      [6, 'error'],
    ]);
    expect(issues[2].message).toMatch(/truncated last line/);
    expect(texts(t.threads[0])).toEqual(['q1', 'a1', 'a2', 'q3']);
    expect(t.threads[0].requests).toHaveLength(2);
  });

  it('warns about missing and mistyped fields and still loads the rest', () => {
    const noMessage = { ...envelope('u2', 'a1'), type: 'user' };
    const t = load(
      jsonl(
        user('u1', null, 'one'),
        asst('a1', 'u1', 'm1', [text('two')]),
        noMessage,
        '[1, 2, 3]',
        '{"uuid":"x"}',
        user('u3', 'u2', 'three'),
        { ...user('u4', 'u3', 'four'), uuid: undefined },
      ),
    );
    expect(t.parseIssues.map((i) => [i.line, i.severity])).toEqual([
      [3, 'warning'],
      [4, 'warning'],
      [5, 'warning'],
      [7, 'warning'],
    ]);
    // The message-less line still links u3 to the conversation; it is counted, not shown.
    expect(texts(t.threads[0])).toEqual(['one', 'two', 'three', 'four']);
    expect(t.threads[0].messages[3].source).toEqual({ line: 7, shape: 'native' });
    expect(t.meta.skipped).toEqual({ 'user:empty': 1 });
  });

  it('treats a mistyped parentUuid as a root, with a warning', () => {
    const t = load(jsonl(user('u1', null, 'one'), { ...user('u2', 'u1', 'two'), parentUuid: 42 }));
    expect(t.parseIssues.map((i) => [i.line, i.severity, i.message])).toEqual([
      [2, 'warning', '"parentUuid" is not a string; treated as a root'],
    ]);
    expect(texts(t.threads[0])).toEqual(['two']);
    expect(t.meta.skipped).toEqual({ 'inactive-branch': 1 });
  });

  it('cuts a parentUuid cycle with a warning naming its lines and keeps every line', () => {
    // Line 3 names a later line as its parent: 3 → 6 → 5 → 4 → 3. Walking from the leaf used to stop in the loop,
    // dropping lines 1–2 into the inactive-branch count with no issue.
    const t = load(
      jsonl(
        user('u1', null, 'q1'),
        asst('a1', 'u1', 'm1', [text('r1')]),
        user('u2', 'a3', 'q2'),
        asst('a2', 'u2', 'm2', [text('r2')]),
        user('u3', 'a2', 'q3'),
        asst('a3', 'u3', 'm3', [text('r3')]),
      ),
    );
    expect(t.parseIssues.map((i) => [i.line, i.severity, i.message])).toEqual([
      [
        3,
        'warning',
        'parentUuid "a3" makes a cycle (line 3 → 6 → 5 → 4 → 3: each line\'s parent is the next); cut on line 3 and linked to the previous line 2',
      ],
    ]);
    expect(texts(t.threads[0])).toEqual(['q1', 'r1', 'q2', 'r2', 'q3', 'r3']);
    expect(t.threads[0].requests).toHaveLength(3);
    expect(t.meta.skipped).toBeUndefined();
    expectIntegrity(t);
  });

  it('reports a cycle with no earlier line to bridge to, and one through every line of a sidechain', () => {
    const side = (o: Obj) => ({ ...o, isSidechain: true });
    const t = load(
      jsonl(
        user('u1', 'a2', 'q1'),
        asst('a1', 'u1', 'm1', [text('r1')]),
        user('u2', 'a1', 'q2'),
        asst('a2', 'u2', 'm2', [text('r2')]),
        side(user('s1', 's2', 'sq')),
        side(asst('s2', 's1', 'ms', [text('sr')])),
      ),
    );
    expect(t.parseIssues.map((i) => [i.line, i.message])).toEqual([
      [
        1,
        'parentUuid "a2" makes a cycle (line 1 → 4 → 3 → 2 → 1: each line\'s parent is the next); cut on line 1 and it starts its own branch',
      ],
      [
        5,
        'parentUuid "s2" makes a cycle (line 5 → 6 → 5: each line\'s parent is the next); cut on line 5 and it starts its own branch',
      ],
    ]);
    expect(texts(t.threads[0])).toEqual(['q1', 'r1', 'q2', 'r2']);
    expect(t.threads.map((th) => th.messages.length)).toEqual([4, 2]);
  });

  it('counts unknown line types and system lines by kind, never as errors', () => {
    const t = load(
      jsonl(
        { type: 'permission-mode', permissionMode: 'default', sessionId: SESSION },
        { type: 'file-history-snapshot', messageId: 'x', snapshot: {}, isSnapshotUpdate: false },
        user('u1', null, 'hi'),
        { type: 'queue-operation', operation: 'enqueue', content: 'x', sessionId: SESSION },
        { ...envelope('p1', 'u1'), type: 'progress', data: { type: 'bash_progress' } },
        { ...envelope('e1', 'u1'), type: 'system', subtype: 'api_error', level: 'error' },
        { type: 'some-future-type', sessionId: SESSION },
        asst('a1', 'u1', 'm1', [text('hello')]),
      ),
    );
    expect(t.parseIssues).toEqual([]);
    expect(texts(t.threads[0])).toEqual(['hi', 'hello']);
    expect(t.meta.skipped).toEqual({
      'permission-mode': 1,
      'file-history-snapshot': 1,
      'queue-operation': 1,
      progress: 1,
      'system:api_error': 1,
      'some-future-type': 1,
    });
  });

  it('prefers a custom title, then an own summary, then an AI title', () => {
    const lines = [user('u1', null, 'hi'), asst('a1', 'u1', 'm1', [text('yo')])];
    const own = { type: 'summary', summary: 'Own summary', leafUuid: 'a1' };
    const other = { type: 'summary', summary: 'Other', leafUuid: 'nope' };
    const ai = { type: 'ai-title', sessionId: SESSION, aiTitle: 'AI title' };
    const custom = { type: 'custom-title', sessionId: SESSION, customTitle: 'Mine' };
    expect(load(jsonl(other, ai, own, custom, ...lines)).meta.title).toBe('Mine');
    expect(load(jsonl(other, ai, own, ...lines)).meta.title).toBe('Own summary');
    expect(load(jsonl(other, ai, ...lines)).meta.title).toBe('AI title');
    expect(load(jsonl(other, ...lines)).meta.title).toBe('Other');
  });
});
