// Multi-file loads (a Claude Code session plus its sub-agent files). The browser only hands over base
// names, so the session file is put first and `agent-*.jsonl` / `agent-*.meta.json` files picked with it are
// named as they sit on disk in Claude Code 2.1 (`<session>/subagents/agent-…`): the parser then attaches them
// as sidechains titled from their .meta.json, as the CLI does when it finds them next to the session. Picking them together says they
// belong together, so the parser's same-session check for sibling (2.0) agent files is not needed.

/** A sub-agent transcript, or its description (2.1 writes `agent-<id>.meta.json` beside it). */
const AGENT = /^agent-[^/\\]+\.(?:jsonl|meta\.json)$/;

/** The session file first, companions after it (renamed where needed); one file is returned as is. */
export function orderFiles(files: readonly File[]): File[] {
  if (files.length < 2) return [...files];
  const isAgent = (f: File) => AGENT.test(f.name);
  // A database comes first, before its -wal file.
  const main =
    files.find((f) => f.name.endsWith('.db')) ??
    files.find((f) => !isAgent(f) && f.name.endsWith('.jsonl')) ??
    files.find((f) => !isAgent(f) && !f.name.endsWith('-wal'));
  if (!main) return [...files];
  const rest = files.filter((f) => f !== main);
  const session = main.name.endsWith('.jsonl') ? main.name.slice(0, -'.jsonl'.length) : null;
  return [
    main,
    ...rest.map((f) => {
      if (!session || !isAgent(f)) return f;
      return new File([f], `${session}/subagents/${f.name}`, { type: f.type, lastModified: f.lastModified });
    }),
  ];
}
