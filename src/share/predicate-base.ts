// What every predicate kind shares (predicate.ts, compaction-predicate.ts): the error a spec that cannot be read
// raises (a one-line reason for the CLI and the dialog), and the witness a predicate that holds yields.

export class PredicateError extends Error {}

/** Where the predicate holds: what a share link's view should point at (a compaction finding opens the
 *  compaction view on the finding: its id, and the lost item focused). */
export type Witness = {
  thread: string;
  request: number | null;
  message: number | null;
  detail: string;
  compaction?: string;
  probe?: string;
};
