// Writes the DERIVED and synthetic fixtures of test/fixtures/ from the real files beside them, each by the rule of
// the writer named in the folder's PROVENANCE.md, so they can be made again and checked (`npm run -s
// make-fixtures`; the tests read the committed files). What each one is:
// - gemini-cli/derived-aim-control_pro.jsonl: aim-control_pro.json rewritten as Gemini CLI migrates a legacy
//   `.json` chat on resume (chatRecordingService.ts initialize(): the metadata line, each message as a line, then
//   `{"$set": {"sessionId"}}`).
// - cline/tasks/<id>/: the Cline 4 session fixture (cline/cline's own) as a Cline 3.x task folder, by the rules of
//   Cline's translator between the two (apps/vscode/src/sdk/message-translator.ts normalizeUsageEvent: disjoint
//   tokensIn / cacheReads / cacheWrites; ui entries say where the history stood).
// - cline/roo-tasks/<id>/: the same as a Roo Code task after 2025-10-31 (`apiProtocol`, `tokensIn` the whole prompt).
// - atif/, otel-genai/ and opencode/: see scripts/make-agent-fixtures.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../test/fixtures');
const read = (rel: string) => JSON.parse(readFileSync(join(ROOT, rel), 'utf8'));
function write(rel: string, text: string): void {
  mkdirSync(dirname(join(ROOT, rel)), { recursive: true });
  writeFileSync(join(ROOT, rel), text);
  console.log(`wrote test/fixtures/${rel} (${text.length} bytes)`);
}

type Obj = Record<string, unknown>;

function geminiMigration(): void {
  const { messages, ...rec } = read('gemini-cli/aim-control_pro.json') as Obj & { messages: Obj[] };
  const header = {
    sessionId: rec.sessionId,
    projectHash: rec.projectHash,
    startTime: rec.startTime,
    lastUpdated: rec.lastUpdated,
    kind: rec.kind,
    directories: rec.directories,
    summary: rec.summary,
  };
  const lines = [header, ...messages, { $set: { sessionId: rec.sessionId } }];
  write('gemini-cli/session-2026-03-26T04-33-b36c9e17.jsonl', `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

function clineTask(roo: boolean): void {
  const doc = read('cline/sessions/1784094124598_rruoq/1784094124598_rruoq.messages.json') as { messages: Obj[] };
  // Roo appends its environment details, which name the model, to every user turn (getEnvironmentDetails.ts).
  const model = (doc.messages.find((m) => m.modelInfo)?.modelInfo as Obj | undefined)?.id;
  const env = {
    type: 'text',
    text: `<environment_details>\n# Current Mode\n<slug>code</slug>\n<model>${model}</model>\n</environment_details>`,
  };
  const history = doc.messages.map((m) => ({
    role: m.role,
    content: roo && m.role === 'user' ? [...(m.content as unknown[]), env] : m.content,
    ...(roo && m.ts ? { ts: m.ts } : {}),
  }));
  const ui: Obj[] = [{ ts: doc.messages[0].ts ?? 1783376868634, type: 'say', say: 'task', text: 'task' }];
  doc.messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const x = (m.metrics ?? {}) as Record<string, number>;
    const read = x.cacheReadTokens ?? 0;
    const write = x.cacheWriteTokens ?? 0;
    const tokensIn = roo ? x.inputTokens : Math.max(0, x.inputTokens - read - write);
    const info = {
      request: '…',
      tokensIn,
      tokensOut: x.outputTokens,
      cacheWrites: write,
      cacheReads: read,
      cost: x.cost,
      ...(roo ? { apiProtocol: 'anthropic' } : {}),
    };
    const started = Number(m.ts ?? 0) - 1000;
    ui.push({
      ts: started,
      type: 'say',
      say: 'api_req_started',
      text: JSON.stringify(info),
      conversationHistoryIndex: i - 2,
      ...(roo
        ? {}
        : { modelInfo: { modelId: (m.modelInfo as Obj | undefined)?.id, providerId: 'cline', mode: 'act' } }),
    });
  });
  const dir = roo ? 'cline/roo-tasks/1783376868634' : 'cline/tasks/1783376868634';
  write(`${dir}/api_conversation_history.json`, JSON.stringify(history));
  write(`${dir}/ui_messages.json`, JSON.stringify(ui));
}

geminiMigration();
clineTask(false);
clineTask(true);
