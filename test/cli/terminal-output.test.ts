// CLI output a terminal cannot be steered by (issue 19 item 7): terminal escapes in a thread title, a file name
// and a quoted line reach stdout/stderr only as visible escapes (OSC 52 would write the clipboard), `--json`
// keeps the values but writes C1 and bidi controls as \u escapes, and a reader that stops early (`| head`)
// ends the run without an EPIPE stack trace.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { terminalJson, terminalLine, terminalText } from '../../src/cli/terminal.ts';
import { asst, jsonl, text, user } from '../helpers/claude-code-lines.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const OSC52 = '\u001b]52;c;cm0gLXJmIH4=\u0007'; // sets the clipboard to "rm -rf ~"
const CSI = '\u001b[2J\u001b[H'; // clears the screen
const C1 = '\u009b31m\u009d0;title\u009c'; // 8-bit CSI and OSC
const BIDI = '\u202eexe.txt\u202c';
const HOSTILE = `${OSC52}${CSI}${C1}${BIDI}`;

/** Any character that can steer a terminal (what terminal.ts escapes), line breaks aside. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
const STEERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('terminal output', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tierscope-term-'));

  /** A Claude Code session on disk whose sub-agent is titled by its .meta.json, with a bad line quoted. */
  function session(name: string, description: string, badLine: string): string {
    const main = jsonl(user('u1', null, 'delegate'), asst('a1', 'u1', 'm1', [text('ok')]), badLine);
    const side = jsonl(
      user('s1', null, 'Find the TODOs', { isSidechain: true, agentId: 'abc' }),
      asst('s2', 's1', 'ms', [text('none')], { isSidechain: true, agentId: 'abc' }),
    );
    const sub = join(dir, name, 'subagents');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'agent-abc.jsonl'), side);
    writeFileSync(join(sub, 'agent-abc.meta.json'), JSON.stringify({ agentType: 'Explore', description }));
    const f = join(dir, `${name}.jsonl`);
    writeFileSync(f, main);
    return f;
  }

  it('escapes a hostile thread title, file name and quoted line in the text summary', async () => {
    const f = session(`sess${CSI}`, `fix ${HOSTILE}\nparse issues: 0 (forged)`, `{"type":"user" ${HOSTILE}`);
    const r = await run(['analyze', f]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('(fix \\x1b]52;c;cm0gLXJmIH4=\\x07'); // the title
    expect(r.out).toContain('starts with "{"type":"user" \\x1b]52'); // the quoted line
    expect(r.out).toContain('\\u202eexe.txt\\u202c');
    expect(r.out).toContain('sess\\x1b[2J\\x1b[H.jsonl'); // the file name
    expect(r.out).not.toMatch(STEERS);
    expect(r.out.split('\n').filter((l) => l.startsWith('parse issues: 0'))).toEqual([]); // no forged line
  });

  it('escapes them in load errors and usage errors on stderr', async () => {
    const f = join(dir, 'garbage.jsonl');
    writeFileSync(f, `${HOSTILE} not a transcript\n`);
    const r = await run(['analyze', f]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('\\x1b]52;c;');
    expect(r.err).not.toMatch(STEERS);
    const u = await run(['analyze', join(dir, `missing${OSC52}.jsonl`)]);
    expect(u.code).toBe(2);
    expect(u.err).toContain('missing\\x1b]52');
    expect(u.err).not.toMatch(STEERS);
  });

  it('--json keeps every value and writes the controls as \\u escapes', async () => {
    const f = session('json', 'title', `{"type":"user" ${HOSTILE}`);
    const r = await run(['analyze', f, '--json']);
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(STEERS);
    expect(r.out).toContain('\\u009b31m');
    const issue = JSON.parse(r.out).parseIssues[0].message as string;
    expect(issue).toContain(`${OSC52}${CSI}${C1}`); // the value itself is unchanged
  });

  it('the escapes are one-to-one and leave ordinary text alone', () => {
    const plain = 'héllo 世界 👋\ttab';
    expect(terminalText(plain)).toBe(plain);
    expect(terminalText('a\nb')).toBe('a\nb');
    expect(terminalLine('a\r\nb')).toBe('a\\r\\nb');
    expect(terminalText('\u001b\u007f\u0085\u202e')).toBe('\\x1b\\x7f\\x85\\u202e');
    const value = `x${HOSTILE}y`;
    expect(JSON.parse(terminalJson(JSON.stringify({ value })))).toEqual({ value });
  });

  it('piped to a reader that stops early, exits without an EPIPE stack trace', async () => {
    // A report far over a pipe's 64 KB buffer, so writes are still pending when the reader goes away.
    const messages: unknown[] = [{ role: 'user', content: 'go' }];
    for (let i = 0; i < 400; i++) {
      const call = { id: `c${i}`, type: 'function', function: { name: 'read', arguments: '{}' } };
      messages.push(
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: `c${i}`, content: 'x' },
      );
    }
    const f = join(dir, 'long.jsonl');
    writeFileSync(f, `${JSON.stringify({ model: 'gpt-4o', messages })}\n`);
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/tierscope.cjs'), 'analyze', f, '--json'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    child.stdout.once('data', () => child.stdout.destroy()); // `| head -c 1`
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(code).toBe(0);
  }, 60_000);
});
