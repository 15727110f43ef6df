// The engine protocol as the worker names it: types only (the shapes live in src/protocol/engine-api.ts, the UI's
// door into the core is src/protocol/index.ts). No value crosses this file, so importing it loads nothing.
export type * from '../src/protocol/index.ts';
