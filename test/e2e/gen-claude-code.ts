// The e2e tests' large Claude Code logs come from the bench's seeded generator (bench/generate.ts), so the
// browser is tested on the same Claude Code 2.x shapes the re-run targets are measured on: one line per content
// block, parallel results hung off their calls, hook attachments, auto-compactions. Sub-agent files are not
// written (only the session file is dropped). Same size, seed and options, same bytes.
import { type ClaudeCodeOptions, claudeCodeLines } from '../../bench/generate.ts';

/** Claude Code 2.x JSONL of about `bytes` bytes. */
export function generateClaudeCode(bytes: number, seed = 37, opts: ClaudeCodeOptions = {}): string {
  return `${[...claudeCodeLines(bytes, seed, opts)].join('\n')}\n`;
}
