// Local (bundled) Monaco: the core editor API plus its UI features and the JSON language service, with
// its workers loaded from this origin (`?worker`), never from a CDN.
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/features/json/register';
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker';

self.MonacoEnvironment = {
  getWorker(_id: string, label: string): Worker {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

// The JSON language service's defaults (schemas for validated editors such as the config editor).
export { jsonDefaults } from 'monaco-editor/languages/features/json/register';
export { monaco };
