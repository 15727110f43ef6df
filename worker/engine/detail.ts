// The engine's per-message methods: a thread's rows (counted in the encoding asked for), a message's detail (its
// normalized JSON and the source lines exactly as written, re-read from the file slice by slice) and a rewrite's
// before/after, each clipped to what the viewer holds.
import type { ByteSource } from '../../src/formats/types.ts';
import { lineBreakOf } from '../../src/lib/lines.ts';
import type { Block } from '../../src/model/transcript.ts';
import { messageRows } from '../../src/projections/rows.ts';
import type { EncodingName } from '../../src/tokens/encodings.ts';
import type { DiffResult, EngineApi, MessageDetail, Row } from '../api.ts';
import { clippedJson, clipText } from '../clip.ts';
import type { EngineState } from './state.ts';

type DetailMethods = Pick<EngineApi, 'rows' | 'detail' | 'diff'>;

function lineStartsOf(source: ByteSource): Float64Array {
  const starts = [0];
  let base = 0;
  const lf = lineBreakOf(source.read(0, Math.min(source.size, 64 * 1024)));
  for (const chunk of source.chunks()) {
    let i = chunk.indexOf(lf);
    while (i !== -1) {
      starts.push(base + i + 1);
      i = chunk.indexOf(lf, i + 1);
    }
    base += chunk.length;
  }
  return Float64Array.from(starts);
}

function blockJson(b: Block | undefined): string {
  if (!b) return '';
  if (b.type === 'tool_result') return typeof b.content === 'string' ? clipText(b.content) : clippedJson(b.content);
  if (b.type === 'text') return clipText(b.text);
  return clippedJson(b);
}

export function createDetailMethods(s: EngineState): DetailMethods {
  function rawLines(file: string, lines: number[]): string | null {
    const loaded = s.loaded;
    if (!loaded) return null;
    const source = loaded.files.get(file);
    if (!source) return null;
    let starts = loaded.lineStarts.get(file);
    if (!starts) {
      starts = lineStartsOf(source);
      loaded.lineStarts.set(file, starts);
    }
    const dec = new TextDecoder();
    const out: string[] = [];
    for (const ln of lines) {
      if (ln < 1 || ln > starts.length) continue;
      const a = starts[ln - 1];
      const b = ln < starts.length ? starts[ln] - 1 : source.size;
      // The line as written (issue 29: parsed and re-serialised, a duplicate key hid its first value, a 30-digit
      // integer became 1.23…e+29 and 1e400 null); clipped only when longer than the viewer holds.
      out.push(clipText(dec.decode(source.read(a, b)).replace(/\r$/, '')));
    }
    return out.join('\n');
  }

  return {
    async rows(threadId: string, encoding?: EncodingName): Promise<Row[]> {
      const th = s.thread(threadId);
      if (!th || !s.loaded) return [];
      const memo = await s.memoFor(s.loaded.transcript, encoding ?? s.loadEncoding);
      return messageRows(th, memo.meter, memo.previews);
    },

    async detail(threadId: string, messageIndex: number): Promise<MessageDetail | null> {
      const th = s.thread(threadId);
      const m = th?.messages[messageIndex];
      const loaded = s.loaded;
      if (!th || !m || !loaded) return null;
      const lines = [m.source.line, ...(m.source.lines ?? [])]
        .filter((x, i, a) => x > 0 && a.indexOf(x) === i)
        .sort((a, b) => a - b);
      const file = m.source.file ?? loaded.mainName;
      // A bundle (share link, .tierscope.json) carries the normalized transcript; its messages' lines are the source
      // file's, which is not here: reading them from the bundle showed the whole bundle as "line 1".
      const t = loaded.transcript;
      const bundled = t.format === 'tierscope';
      const raw = bundled || m.source.path || lines.length === 0 ? null : rawLines(file, lines);
      const from = [t.meta.fileName, t.meta.originalFormat].filter(Boolean).join(', ');
      return {
        thread: threadId,
        index: messageIndex,
        normalized: clippedJson(m),
        raw,
        line: m.source.line,
        path: m.source.path,
        ...(bundled
          ? {
              rawNote: `a Tierscope bundle (share link or .tierscope.json) carries the normalized transcript, not its source file${m.source.line > 0 ? `: this message was line ${m.source.line} of the source${from ? ` (${from})` : ''}` : ''}; normalized shown`,
            }
          : {}),
      };
    },

    async diff(eventId: number): Promise<DiffResult | null> {
      const e = s.last?.full[eventId];
      if (!e) return null;
      const where = e.messageIndex >= 0 ? `message ${e.messageIndex}` : 'summary';
      return {
        before: blockJson(e.before),
        after: blockJson(e.after),
        title: `${e.stage} · ${e.action}${e.tier ? ` · tier ${e.tier}` : ''} · ${where} · request ${e.request}`,
      };
    },
  };
}
