// Share links (SPEC §7): `<origin><path>#s=1.<base64url(deflate-raw(UTF-8 JSON))>`. Everything rides in the
// fragment, so nothing reaches a server. The `1.` prefix versions the link itself; the JSON inside carries
// its own `v` (payload.ts). Decoding never throws: a damaged link gets one clear message saying what broke.
import { formatBytes } from '../lib/bytes.ts';
import { grouped } from '../lib/digits.ts';
import { moreValuesThan, tryParseJson } from '../lib/json.ts';
import { deflateRaw, fromBase64Url, inflateRaw, toBase64Url } from './bytes.ts';
import { DEFAULT_BASE_URL, linkFor, shareValue } from './link.ts';
import { type DecodedShare, fromPayload, type ShareState, toPayload } from './payload.ts';

const LINK_VERSION = 1;

/**
 * What a link may expand to (a link is at most 2 MB, so its data at most ~1.5 MB compressed): 32 MB of JSON,
 * and at most 100× its compressed size (transcript JSON deflates 5–20×; 700× is a run of one character, i.e.
 * a decompression bomb). Inflation streams and stops at the cap, so a bomb costs at most the cap in memory.
 */
export const LINK_INFLATE_MAX = 32 * 1024 * 1024;
const LINK_INFLATE_RATIO = 100;
/** The smallest cap, so a short link of a small transcript is never refused for its ratio. */
const LINK_INFLATE_FLOOR = 1024 * 1024;
/** JSON values a link may hold: a 32 MB transcript has well under a million (each message is a few values
 *  around long strings); five million one-digit numbers are a bomb that JSON.parse would spend seconds on. */
const LINK_MAX_VALUES = 2_000_000;
/** Longer `s` values are not links (a URL holds at most 2 MB; a pasted value gets some slack). */
const LINK_VALUE_MAX = 8 * 1024 * 1024;

/** The most a link of `packed` compressed bytes may inflate to. */
export function inflateCap(packed: number): number {
  return Math.min(LINK_INFLATE_MAX, Math.max(LINK_INFLATE_FLOOR, packed * LINK_INFLATE_RATIO));
}

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
  if (m[2].length > LINK_VALUE_MAX)
    return { ok: false, error: `this share link is ${formatBytes(m[2].length)}, too long to be a link (at most 2 MB)` };
  const packed = fromBase64Url(m[2]);
  if (!packed || packed.length === 0) {
    return { ok: false, error: 'this share link is damaged: its data is not base64url (was it cut or re-encoded?)' };
  }
  let bytes: Uint8Array;
  const cap = inflateCap(packed.length);
  try {
    bytes = await inflateRaw(packed, cap);
  } catch (e) {
    if (e instanceof RangeError)
      return {
        ok: false,
        error: `this share link is refused: its ${formatBytes(packed.length)} of data expand past ${formatBytes(cap)} (a link holds at most ${formatBytes(LINK_INFLATE_MAX)}, at most ${LINK_INFLATE_RATIO}× its compressed size) — real transcripts compress far less; this looks like a decompression bomb`,
      };
    return {
      ok: false,
      error: 'this share link is damaged: its data does not decompress (was it cut off when copied?)',
    };
  }
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: 'this share link is damaged: its data is not UTF-8' };
  }
  if (moreValuesThan(json, LINK_MAX_VALUES))
    return {
      ok: false,
      error: `this share link is refused: its ${formatBytes(json.length)} of JSON hold over ${grouped(LINK_MAX_VALUES)} values — a transcript link holds far fewer`,
    };
  const parsed = tryParseJson(json);
  if (!parsed.ok) return { ok: false, error: `this share link is damaged: its data is not JSON (${parsed.message})` };
  return fromPayload(parsed.value);
}
