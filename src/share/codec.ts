// Share links (SPEC §7): `<origin><path>#s=1.<base64url(deflate-raw(UTF-8 JSON))>`. Everything rides in the
// fragment, so nothing reaches a server. The `1.` prefix versions the link itself; the JSON inside carries
// its own `v` (payload.ts). Decoding never throws: a damaged link gets one clear message saying what broke.
import { tryParseJson } from '../lib/json.ts';
import { deflateRaw, fromBase64Url, inflateRaw, toBase64Url } from './bytes.ts';
import { type DecodedShare, fromPayload, type ShareState, toPayload } from './payload.ts';

export const LINK_VERSION = 1;
export const DEFAULT_BASE_URL = 'http://127.0.0.1:5173/';

/** The fragment value `1.<data>` for a state. */
export async function encodeShare(state: ShareState): Promise<string> {
  const json = JSON.stringify(toPayload(state));
  const packed = await deflateRaw(new TextEncoder().encode(json));
  return `${LINK_VERSION}.${toBase64Url(packed)}`;
}

/** A full link: the base URL (its own fragment dropped) + `#s=<encoded>`. */
export async function shareLink(state: ShareState, baseUrl = DEFAULT_BASE_URL): Promise<string> {
  return linkFor(await encodeShare(state), baseUrl);
}

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

/** Decode a link (or its fragment). Fatal only when nothing usable is left; see payload.ts for the
 *  per-field fallbacks and their warnings. */
export async function decodeShare(input: string): Promise<DecodedShare> {
  const value = shareValue(input);
  if (value === null) return { ok: false, error: 'this is not a Tierscope share link (no #s=… in its fragment)' };
  const m = /^(\d+)\.(.*)$/s.exec(value);
  if (!m) return { ok: false, error: 'this share link has no version prefix (expected #s=1.…)' };
  const version = Number(m[1]);
  if (version !== LINK_VERSION) {
    return {
      ok: false,
      error:
        version > LINK_VERSION
          ? `this link was made by a newer Tierscope (link version ${version}); this Tierscope opens version ${LINK_VERSION} links — update Tierscope to open it`
          : `unknown share link version ${m[1]}; this Tierscope opens version ${LINK_VERSION} links`,
    };
  }
  const packed = fromBase64Url(m[2]);
  if (!packed || packed.length === 0) {
    return { ok: false, error: 'this share link is damaged: its data is not base64url (was it cut or re-encoded?)' };
  }
  let bytes: Uint8Array;
  try {
    bytes = await inflateRaw(packed);
  } catch (e) {
    const why = e instanceof RangeError ? e.message : 'does not decompress';
    return { ok: false, error: `this share link is damaged: its data ${why} (was it cut off when copied?)` };
  }
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: 'this share link is damaged: its data is not UTF-8' };
  }
  const parsed = tryParseJson(json);
  if (!parsed.ok) return { ok: false, error: `this share link is damaged: its data is not JSON (${parsed.message})` };
  return fromPayload(parsed.value);
}
