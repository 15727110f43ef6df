// A count with its noun for the terminal summary: "1 thread", "3 threads", "1 response", "2 responses".

/** `n` and the noun, plural unless `n` is 1 (`many`: the plural when it is not `one` + "s"). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
