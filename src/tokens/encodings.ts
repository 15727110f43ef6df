// The encodings Tierscope counts with (SPEC §2): the vocabulary alone, apart from the tokenizer, so the page,
// the share-link reader and the CLI's options name them without loading any rank table.

/** Every encoding, the default first. */
export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
export type EncodingName = (typeof ENCODINGS)[number];
