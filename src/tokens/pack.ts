// Pack many strings into one UTF-8 buffer plus offsets, so a batch of texts crosses to a counting
// worker as two transferable buffers (no structured clone of thousands of strings), and unpack there.

export type Packed = { bytes: Uint8Array; offsets: Uint32Array };

const enc = new TextEncoder();

/** Pack texts; offsets[i]..offsets[i+1] is text i. */
export function packTexts(texts: readonly string[]): Packed {
  let cap = 0;
  for (const t of texts) cap += t.length * 3;
  const bytes = new Uint8Array(cap);
  const offsets = new Uint32Array(texts.length + 1);
  let o = 0;
  for (let i = 0; i < texts.length; i++) {
    offsets[i] = o;
    o += enc.encodeInto(texts[i], bytes.subarray(o)).written;
  }
  offsets[texts.length] = o;
  return { bytes: bytes.slice(0, o), offsets };
}

export function unpackTexts(p: Packed): string[] {
  const dec = new TextDecoder();
  const out: string[] = [];
  for (let i = 0; i + 1 < p.offsets.length; i++) out.push(dec.decode(p.bytes.subarray(p.offsets[i], p.offsets[i + 1])));
  return out;
}
