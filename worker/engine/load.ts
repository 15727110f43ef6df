// The engine's load methods: read what the page handed over (checked against the file-size limit, gzip undone),
// parse it, keep it (a followed session's growth keeps what did not change), start exact counting in the encoding
// the page will run with, and answer with the transcript's summary (projections/load-summary.ts). A load that
// fails, is cancelled or is overtaken by a newer one never replaces what is loaded.
import { type HeldLines, heldLines, parseTranscript } from '../../src/formats/index.ts';
import { APP_MAX_FILE_BYTES } from '../../src/formats/limits.ts';
import { fileIsSqlite } from '../../src/formats/sqlite.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { ByteSource } from '../../src/formats/types.ts';
import { carryOver } from '../../src/model/carry-over.ts';
import { transcriptSummary } from '../../src/projections/load-summary.ts';
import type { EngineApi, LoadFailure, LoadSummary } from '../api.ts';
import { prepareInput } from '../blob-input.ts';
import { shareInFile } from './share.ts';
import type { EngineState } from './state.ts';

type LoadMethods = Pick<EngineApi, 'load' | 'cancelLoad' | 'counted' | 'exportBundle'>;

export function createLoadMethods(s: EngineState): LoadMethods {
  return {
    // The parameters are EngineApi's (typed there, in src/protocol/engine-api.ts).
    async load(files, format, onProgress, limits, follow, session, encoding): Promise<LoadSummary | LoadFailure> {
      const t0 = performance.now();
      const seq = ++s.loads;
      const cancelled = () => s.cancelledLoad >= seq;
      const stopped: LoadFailure = { ok: false, error: 'cancelled, nothing of it was loaded.', issues: [] };
      // A followed session's lines, kept from its last load; any other load lets them go.
      const growing = follow === 'grow' && s.held !== undefined && s.held.name === files[0]?.name;
      const keep = growing ? s.held?.lines : follow ? heldLines() : undefined;
      const keepExtras = growing ? s.held?.extras : follow ? new Map<string, HeldLines>() : undefined;
      s.held = undefined;
      if (files.length === 0) return { ok: false, error: 'No file given.', issues: [] };
      // Every input path (picker, drop, paste, ?src=, share file) is checked against the file-size limit here,
      // before anything is parsed; gzip is undone on the way in.
      const maxBytes = limits?.maxFileBytes ?? APP_MAX_FILE_BYTES;
      onProgress?.({ phase: 'reading', fraction: 0 });
      const prepared = [];
      for (const f of files) {
        const p = await prepareInput(
          f,
          maxBytes,
          (fraction) => onProgress?.({ phase: 'reading', fraction }),
          s.options.openPath,
        );
        if (cancelled()) return stopped;
        if (!p.ok) {
          if (prepared.length === 0) return { ok: false, error: p.error, issues: [] };
          continue; // a companion file: the main file still loads (parseTranscript reports missing companions)
        }
        prepared.push(p);
      }
      if (seq !== s.loads) return { ok: false, error: 'A newer load replaced this one.', issues: [] };
      const [main, ...extra] = prepared.map((p) => p.source);
      onProgress?.({ phase: 'parsing', fraction: 0 });
      const sqlite = s.sqlite;
      const database = fileIsSqlite(main) && sqlite ? await sqlite() : undefined;
      const r = parseTranscript(main, extra, {
        ...(database ? { sqlite: database } : {}),
        ...(session !== undefined ? { session } : {}),
        format,
        limits,
        progress: (f) => onProgress?.({ phase: 'parsing', fraction: f }),
        held: keep,
        heldExtras: keepExtras,
      });
      if (!r.ok) return { ok: false, error: r.error, issues: r.issues };
      // A cancel sent while parsing is read now, before anything of the file replaces what is loaded.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (cancelled()) return stopped;
      if (keep && keepExtras) s.held = { name: files[0].name, lines: keep, extras: keepExtras };
      s.following = follow !== undefined;
      for (const p of prepared)
        if (p.issue)
          r.transcript.parseIssues.unshift({ line: 0, severity: 'warning', message: p.issue, file: p.source.name });
      const fileMap = new Map<string, ByteSource>(prepared.map((p) => [p.source.name, p.source]));
      // A growth keeps the objects the file's last read made that did not change, and the run memos with them.
      const earlier = growing && s.loaded ? s.loaded.transcript : undefined;
      const t = earlier ? carryOver(earlier, r.transcript) : r.transcript;
      s.loaded = { transcript: t, files: fileMap, mainName: main.name, lineStarts: new Map() };
      s.last = undefined;
      s.replaceMemos(t, earlier !== undefined);
      s.countings.clear();
      s.loadEncoding = encoding ?? 'o200k_base';
      void s.countingFor(s.loadEncoding, onProgress);
      const share = t.format === 'tierscope' ? shareInFile(main, t) : undefined;
      return {
        ok: true,
        fileName: files[0].name,
        bytes: main.size,
        ...transcriptSummary(t),
        loadMs: performance.now() - t0,
        ...(share ? { share } : {}),
      };
    },

    async cancelLoad(): Promise<void> {
      s.cancelledLoad = s.loads;
    },

    counted() {
      return s.countingFor(s.loadEncoding);
    },

    async exportBundle() {
      return s.loaded ? exportBundle(s.loaded.transcript) : null;
    },
  };
}
