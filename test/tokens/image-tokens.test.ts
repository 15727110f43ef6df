// Image tokens from the pixel size of an embedded image (Anthropic's width × height / 750 after scaling to
// 1568 px and the 1092 × 1092 area), and the flat estimate when the log holds no bytes.
import { describe, expect, it } from 'vitest';
import { anthropicImageTokens, IMAGE_TOKENS, imageTokens } from '../../src/tokens/image-tokens.ts';
import { mediaTokens } from '../../src/tokens/media-tokens.ts';

/** The first bytes of a PNG of the given size (signature + IHDR): all a header sniffer reads. */
function pngHead(width: number, height: number): string {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const v = new DataView(b.buffer);
  v.setUint32(16, width);
  v.setUint32(20, height);
  b.set([8, 6, 0, 0, 0], 24);
  return btoa(String.fromCharCode(...b));
}

describe('image tokens', () => {
  it('follows Anthropic’s rule: w × h / 750, scaled to 1568 px and 1092 × 1092 px of area first', () => {
    expect(anthropicImageTokens(1000, 500)).toBe(667);
    expect(anthropicImageTokens(1092, 1092)).toBe(1590);
    // 4000 × 3000 → long edge 1568 → 1568 × 1176 = 1.84 MP → scaled to 1092² px of area → 1,590 tokens
    expect(anthropicImageTokens(4000, 3000)).toBe(1590);
    expect(anthropicImageTokens(3000, 200)).toBe(Math.ceil((1568 * (200 * 1568)) / 3000 / 750));
  });

  it('reads the size of embedded base64 images (Anthropic source, data: URL); else the flat estimate', () => {
    const data = pngHead(1000, 500);
    expect(imageTokens({ type: 'base64', media_type: 'image/png', data })).toBe(667);
    expect(imageTokens({ url: `data:image/png;base64,${data}` })).toBe(667);
    expect(imageTokens({ type: 'url', url: 'https://example.com/a.png' })).toBe(IMAGE_TOKENS);
    expect(imageTokens({ type: 'base64', data: 'not an image' })).toBe(IMAGE_TOKENS);
    const result = {
      type: 'tool_result' as const,
      toolUseId: 't',
      isError: false,
      content: [{ type: 'image' as const, source: { data } }],
    };
    expect(mediaTokens(result)).toBe(667);
  });
});
