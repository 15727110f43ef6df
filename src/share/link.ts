// A share link's text (SPEC §7): where its `s` value sits in a URL, a fragment or a pasted value, and the link
// made from a value. Plain string work apart from the codec, so the page reads and writes links without the codec.

export const DEFAULT_BASE_URL = 'http://127.0.0.1:5173/';

export function linkFor(encoded: string, baseUrl = DEFAULT_BASE_URL): string {
  const hash = baseUrl.indexOf('#');
  return `${hash >= 0 ? baseUrl.slice(0, hash) : baseUrl}#s=${encoded}`;
}

/** The `s` value of a link, a fragment (`#s=…`, `s=…`) or the bare value (`1.…`); null when absent. */
export function shareValue(input: string): string | null {
  const text = input.trim();
  if (/^\d+\./.test(text)) return text;
  const hash = text.indexOf('#');
  const fragment = hash >= 0 ? text.slice(hash + 1) : text;
  for (const part of fragment.split('&')) {
    if (!part.startsWith('s=')) continue;
    const v = part.slice(2);
    if (!v.includes('%')) return v;
    try {
      return decodeURIComponent(v);
    } catch {
      return v;
    }
  }
  return null;
}
