// Command-line argument parsing for the tierscope CLI: positional arguments, `--flag value`,
// `--flag=value`, repeatable `--set k=v`, and boolean switches. Unknown flags are errors (exit 2).

export type ParsedArgs = {
  command: string | undefined;
  positional: string[];
  options: Map<string, string[]>;
  switches: Set<string>;
};

export class UsageError extends Error {}

/** Parse argv (without node and script) given the flags that take values and the boolean switches. */
export function parseArgs(argv: string[], valued: readonly string[], booleans: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { command: undefined, positional: [], options: new Map(), switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (booleans.includes(name)) {
        out.switches.add(name);
        continue;
      }
      if (!valued.includes(name)) throw new UsageError(`unknown option --${name}`);
      const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      const list = out.options.get(name) ?? [];
      list.push(value);
      out.options.set(name, list);
    } else if (out.command === undefined) out.command = a;
    else out.positional.push(a);
  }
  return out;
}

export function option(args: ParsedArgs, name: string): string | undefined {
  const v = args.options.get(name);
  return v ? v[v.length - 1] : undefined;
}
