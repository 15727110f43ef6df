// Tokens of an image the model saw, estimated from its pixel size when the log embeds it (base64 data or a
// data: URL; the header is read by image-size, the field's maintained sniffer): Anthropic's rule, tokens ≈
// width × height / 750 after the image is scaled to fit 1568 px on its long edge and ~1.19 megapixels (the
// docs' table: 1092 × 1092 ≈ 1,590 tokens; "Vision: calculate image costs", Anthropic docs). Without the bytes (a URL, a file id) it is IMAGE_TOKENS, a flat
// estimate for a ~1092 × 1092 image. OpenAI counts 512-px tiles instead; the calibration factor absorbs that.
import { imageSize } from 'image-size';

/** Estimated tokens for one image whose size is unknown (Anthropic: ~1,600 for a 1092×1092 image). */
export const IMAGE_TOKENS = 1600;

const MAX_EDGE = 1568;
/** The docs' size table tops out at 1092 × 1092 (≈1.19 MP, ≈1,590 tokens) for a square image. */
const MAX_PIXELS = 1092 * 1092;
/** Enough base64 for any header image-size reads (JPEG size markers can follow EXIF data of ~64 KB). */
const HEAD_CHARS = 96 * 1024;

/** The base64 payload of an image source, if the log embeds it. */
function base64Of(source: unknown): string | undefined {
  if (typeof source === 'string') return source.startsWith('data:') ? source.slice(source.indexOf(',') + 1) : undefined;
  if (typeof source !== 'object' || source === null) return undefined;
  const s = source as Record<string, unknown>;
  if (typeof s.data === 'string') return s.data;
  const url = typeof s.url === 'string' ? s.url : undefined;
  return url?.startsWith('data:') ? url.slice(url.indexOf(',') + 1) : undefined;
}

/** The bytes of base64 text (its first `maxChars` when given); undefined when it is no base64. */
export function decodeBase64(b64: string, maxChars = b64.length): Uint8Array | undefined {
  const head = b64.slice(0, maxChars - (maxChars % 4)).replace(/[^A-Za-z0-9+/]/g, '');
  try {
    const bin = atob(head.slice(0, head.length - (head.length % 4)));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** Anthropic's tokens for a width × height image (scaled down first when over the limits). */
export function anthropicImageTokens(width: number, height: number): number {
  let scale = Math.min(1, MAX_EDGE / Math.max(width, height));
  if (width * height * scale * scale > MAX_PIXELS) scale = Math.sqrt(MAX_PIXELS / (width * height));
  return Math.ceil((width * scale * (height * scale)) / 750);
}

/** Tokens of one image block: from its pixel size when the bytes are there, else IMAGE_TOKENS. */
export function imageTokens(source: unknown): number {
  const b64 = base64Of(source);
  const bytes = b64 ? decodeBase64(b64, HEAD_CHARS) : undefined;
  if (!bytes) return IMAGE_TOKENS;
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? anthropicImageTokens(width, height) : IMAGE_TOKENS;
  } catch {
    return IMAGE_TOKENS;
  }
}
