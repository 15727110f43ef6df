// What every command of the CLI shares: the io it writes through (terminal-escaped text, JSON) and `load`, which
// reads the file argument with its companions, its format and settings (the flags over the log's defaults) and
// a tokenizer. Used by main.ts (analyze) and share-commands.ts (share, minimize).
import { logDefaults } from '../analyses/log-defaults.ts';
import { type SettingsOrigin, settingsOrigin } from '../analyses/settings-origin.ts';
import { DEFAULT_LIMITS, FORMAT_IDS, parseTranscript } from '../formats/index.ts';
import { fileIsSqlite } from '../formats/sqlite.ts';
import type { FormatId, Transcript } from '../model/transcript.ts';
import { type CachedTokenizer, createTokenizer, type RankLoader } from '../tokens/tokenizer.ts';
import { option, type ParsedArgs, UsageError } from './args.ts';
import { openInput } from './node-input.ts';
import { resolveSettings, type Settings, settingsFor } from './options.ts';
import { nodeSqlite } from './sqlite-node.ts';
import { terminalJson, terminalText } from './terminal.ts';

export type CliIo = {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Packed rank tables the built CLI ships (entry.ts); absent, the tokenizer decodes js-tiktoken's. */
  ranks?: RankLoader;
  /** What `-` reads (process.stdin when not given). */
  stdin?: () => AsyncIterable<Uint8Array>;
};
/** The io the commands write through: text escaped for a terminal (terminal.ts); `json` for JSON output. */
export type TermIo = CliIo & { json: (s: string) => void };

export function termIo(io: CliIo): TermIo {
  return {
    out: (s) => io.out(terminalText(s)),
    err: (s) => io.err(terminalText(s)),
    json: (s) => io.out(terminalJson(s)),
    ranks: io.ranks,
    stdin: io.stdin ?? (() => process.stdin),
  };
}

export type Loaded = { transcript: Transcript; settings: Settings; origin: SettingsOrigin; tokenizer: CachedTokenizer };

/** The file argument, format and settings of any command, parsed and loaded; a string is a load error. */
export async function load(args: ParsedArgs, io: Pick<CliIo, 'ranks' | 'stdin'>): Promise<Loaded | string> {
  const file = args.positional[0];
  if (!file) throw new UsageError(`${args.command} needs a file`);
  const format = option(args, 'format');
  if (format !== undefined && !FORMAT_IDS.includes(format as FormatId)) {
    throw new UsageError(`unknown format "${format}" (one of ${FORMAT_IDS.join(', ')})`);
  }
  const flags = resolveSettings(args);
  const input = await openInput(file, io.stdin ?? (() => process.stdin), DEFAULT_LIMITS.maxFileBytes);
  // An input that cannot be used (missing, a folder, a gzip bomb past the limit) is one line, exit 2: no usage text.
  if (typeof input === 'string') throw new Error(input);
  let loaded: ReturnType<typeof parseTranscript>;
  try {
    // A database (opencode) needs the SQLite engine, loaded only then.
    const sqlite = fileIsSqlite(input.main) ? await nodeSqlite() : undefined;
    const session = option(args, 'session');
    loaded = parseTranscript(input.main, input.companions, {
      format: format as FormatId | undefined,
      ...(sqlite ? { sqlite } : {}),
      ...(session !== undefined ? { session } : {}),
    });
  } finally {
    input.cleanup();
  }
  if (!loaded.ok) return loaded.error;
  for (const message of input.notes) loaded.transcript.parseIssues.unshift({ line: 0, severity: 'warning', message });
  // The provider and window the flags leave open come from the log (SPEC §1.1), as in the app.
  const defaults = logDefaults(loaded.transcript);
  const settings = settingsFor(flags, defaults);
  const origin = settingsOrigin(
    defaults,
    {
      provider: settings.provider,
      contextWindow: settings.config.contextWindow,
      ttlSeconds: settings.config.cache.ttlSeconds,
    },
    { provider: flags.provider !== null, contextWindow: flags.windowChosen, ttl: flags.ttlChosen },
  );
  return {
    transcript: loaded.transcript,
    settings,
    origin,
    tokenizer: await createTokenizer(settings.encoding, io.ranks),
  };
}
