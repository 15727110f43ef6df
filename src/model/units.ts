// Unit aliases used in signatures so a reader can tell runes from UTF-16 chars from tokens.
// They are plain numbers at runtime; the names document intent (SPEC §2, §4).

/** Count of tokens (exact from a tokenizer, or calibrated where stated). */
export type Tokens = number;
/** 0-based index of a request within its thread. */
export type RequestIndex = number;
/** 0-based index of a message within its thread. */
export type MessageIndex = number;
/** 1-based line number in the source file. */
export type LineNumber = number;
/** Milliseconds since the Unix epoch. */
export type EpochMs = number;
