// The engine behind EngineApi, composed of its jobs (engine/: load, run, detail, share, folder) over one state
// (engine/state.ts). Pure TypeScript with no DOM: it runs in the worker, in Node tests, and in-thread as the
// no-worker fallback.
import type { EngineApi } from './api.ts';
import { createDetailMethods } from './engine/detail.ts';
import { createFolderMethods } from './engine/folder.ts';
import { createLoadMethods } from './engine/load.ts';
import { createNotesMethods } from './engine/notes.ts';
import { createRunMethods } from './engine/run.ts';
import { createShareMethods } from './engine/share.ts';
import { type EngineOptions, EngineState } from './engine/state.ts';

export function createEngine(options: EngineOptions = {}): EngineApi {
  const s = new EngineState(options);
  const loading = createLoadMethods(s);
  return {
    ...loading,
    ...createDetailMethods(s),
    ...createRunMethods(s),
    ...createNotesMethods(s),
    ...createShareMethods({
      transcript: () => s.loaded?.transcript,
      tokenizer: (enc) => s.tokenizerFor(enc),
      load: (files, onProgress) => loading.load(files, 'tierscope', onProgress),
    }),
    ...createFolderMethods(s.sqlite),
  };
}
