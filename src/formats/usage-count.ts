// Token counts of a provider's `usage` object as the log wrote them. A count written as text ("120") is read as the
// number it says and named (parseTranscript then notes it on the request's line); anything else that is not a count
// becomes NaN, so the usage is dropped with a warning — before, both were dropped without a word (issue 29).
import type { ObservedUsage } from '../model/transcript.ts';

/** Usage as a reader returns it: `asText` names the fields that were written as text (taken off after the load). */
export type ReadUsage = ObservedUsage & { asText?: string[] };

/** A reader of one usage object's counts: `count(value, field)`, then `mark(usage)` to name the text ones. */
export function usageReader() {
  const asText: string[] = [];
  return {
    count(v: unknown, field: string): number | undefined {
      if (typeof v === 'number') return v;
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) {
        asText.push(`${field} "${v.trim()}"`);
        return Number(v);
      }
      return Number.NaN;
    },
    mark<U extends ObservedUsage>(u: U): U & ReadUsage {
      return asText.length > 0 ? { ...u, asText } : u;
    },
  };
}
