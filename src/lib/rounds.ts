// A memo that keeps what the last few rounds (runs) used: each run's entries are its own, and a lookup that finds
// an entry of an earlier kept round carries it into the current one. A slider drag makes new entries every run;
// a plain size cap holds many runs' worth live (and V8 lets garbage grow to a multiple of the live heap), this
// holds what a drag back and forth reuses and no more.

export class RoundMap<K, V> {
  /** Newest round first; at most `rounds` of them. */
  private kept: Map<K, V>[] = [new Map()];

  constructor(private readonly rounds: number) {}

  /** Start a new round: the oldest kept round's entries that no later round used are dropped. */
  nextRound(): void {
    this.kept.unshift(new Map());
    if (this.kept.length > this.rounds) this.kept.length = this.rounds;
  }

  /** The value of `key` (carried into the current round when an earlier kept round has it). */
  get(key: K): V | undefined {
    const now = this.kept[0];
    const v = now.get(key);
    if (v !== undefined) return v;
    for (let i = 1; i < this.kept.length; i++) {
      const old = this.kept[i].get(key);
      if (old !== undefined) {
        now.set(key, old);
        return old;
      }
    }
    return undefined;
  }

  set(key: K, value: V): void {
    this.kept[0].set(key, value);
  }

  /** Entries of the current round (tests). */
  get size(): number {
    return this.kept[0].size;
  }
}
