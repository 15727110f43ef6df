// The contract every input-format parser implements (STYLE.md "A format parser looks like this"):
// a cheap `sniff` over the head of the input and a `parse` that turns lines (or one JSON document)
// into the normalized Transcript. Parsers never throw on bad data: they record ParseIssues.

import type { Line } from '../lib/lines.ts';
import type { FormatId, ParseIssue, Transcript } from '../model/transcript.ts';
import type { SqliteDb } from './sqlite.ts';

/** One input file: a name (a hint only) and a way to stream its bytes. */
export type SourceFile = {
  name: string;
  size: number;
  chunks: () => Iterable<Uint8Array>;
  /** The bytes from `offset` on, without reading those before (optional: else `chunks` is read and skipped). */
  chunksFrom?: (offset: number) => Iterable<Uint8Array>;
};

/** A SourceFile that can also read any byte range (the engine's raw-line views, a share file's tail). */
export type ByteSource = SourceFile & { read: (start: number, end: number) => Uint8Array };

/** What `sniff` sees: the first non-empty lines parsed as JSON, and (for single-document inputs) the document. */
export type SniffHead = {
  fileName: string;
  /** Parsed values of the first ≤ 20 non-empty lines; `undefined` where a line is not JSON. */
  lines: unknown[];
  /** The whole input parsed as one JSON value, when it is a single JSON document (else undefined). */
  doc: unknown;
  /** For a zip archive (Inspect `.eval`): the names of its first entries, in file order (`lines` is empty). */
  archive?: { entries: string[] };
  /** For an SQLite database (opencode): its table names (`lines` is empty). */
  database?: { tables: string[] };
};

export type ParseContext = {
  /** Record a problem; parsing continues. */
  issue: (issue: ParseIssue) => void;
  /** Report progress in [0, 1] (optional). */
  progress?: (fraction: number) => void;
};

export type ParseInput = {
  main: SourceFile;
  /** Companion files (Claude Code sub-agent `agent-*.jsonl` files). */
  extra: SourceFile[];
  /** Lines of the main file (streamed; each call restarts). */
  lines: () => Iterable<Line>;
  /** Lines of a companion file, read with the same limits as the main file's. */
  extraLines: (file: SourceFile) => Iterable<Line>;
  /** The main file parsed as one JSON document (cached), or undefined when it is not one. */
  doc: () => unknown;
  /** The main file is a zip archive: its bytes come from `main.chunks()`; `lines()` and `doc()` are empty. */
  archive: boolean;
  /** The largest JSON document a parser may hold as one string (a whole file, or one entry of an archive). */
  maxDocumentBytes: number;
  /** The main file is an SQLite database, opened read-only (`lines()` and `doc()` are empty). */
  database?: SqliteDb;
  /** For a file that holds several sessions (a database): the one to read, by id; all of them when absent. */
  session?: string;
};

export interface FormatParser {
  id: FormatId;
  label: string;
  /** Cheap test on the head of the input. Never throws. */
  sniff(head: SniffHead): boolean;
  /** Reads zip archives (its `sniff` looks at `head.archive`); no other parser is given one. */
  archives?: boolean;
  /** Reads SQLite databases (its `sniff` looks at `head.database`); no other parser is given one. */
  databases?: boolean;
  /** Parse the whole input. Bad lines become issues; the rest still loads. */
  parse(input: ParseInput, ctx: ParseContext): Transcript;
}
