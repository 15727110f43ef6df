// The error a failed tool result states, as one line: its first non-empty line of output. Under Codex's exec header
// (`Exit code: 1` … `Output:` up to 0.5x; `Chunk ID: a598b9`, `Wall time`, `Process exited with code 1` … `Output:`
// from 0.11x) that is the command's own first line, not the header's (a random chunk id, or an exit code every
// failure shares); terminal colour codes are taken out, as a summary does not repeat them. The anchored summaries
// (artifacts.ts) and the compaction audit's ledger (analyses/ledger.ts) read errors through this one function.

const EXEC_HEADER = /^(?:Chunk ID|Exit code): /;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape character is the point
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** The first line of `text` that states the error (trimmed), or null when it has none. */
export function errorLineOf(text: string): string | null {
  const lines = text.split('\n');
  let from = 0;
  if (EXEC_HEADER.test(lines[0] ?? '')) {
    const output = lines.indexOf('Output:');
    if (output > 0) from = output + 1;
  }
  for (let i = from; i < lines.length; i++) {
    const line = lines[i].replace(ANSI, '').trim();
    if (line !== '') return line;
  }
  // An exec that printed nothing: its exit line says what failed.
  for (let i = 0; i < from; i++) if (/exit(ed with)? code/i.test(lines[i])) return lines[i].trim();
  return null;
}
