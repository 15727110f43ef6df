// Tokens of what a block carries that is no text: images (image-tokens.ts) and `document` blocks (PDFs and other
// files). Anthropic bills a PDF page as an image plus the text extracted from it ("PDF support": "each page is
// converted into an image" and "the text from each page is extracted and provided alongside"), never as its base64:
// counted as base64 text, the DeepDive PDF of a real Claude Code 2.1.7 session (16 letter pages, 750 KB) came to
// 639,927 tokens where the provider counted ≈41,500. Per page: the image rule at the largest size Anthropic keeps
// (the page rendered past 1568 px / 1.19 MP and scaled down: ≈1,590 tokens for a letter page, the figure measured
// for a one-page scan), plus its shown glyphs at GLYPHS_PER_TOKEN, calibrated on that session (note issue-26.md).
import type { Block } from '../model/transcript.ts';
import { anthropicImageTokens, decodeBase64, IMAGE_TOKENS, imageTokens } from './image-tokens.ts';
import { pdfFacts } from './pdf-pages.ts';

/** Shown glyphs (spaces excluded) per token of a PDF's extracted text, calibrated on the real session above:
 *  47,328 glyphs on 16 pages; the prompt grew by ≈41,500 tokens past the counted messages. */
const GLYPHS_PER_TOKEN = 3.85;
/** Tokens of a document page whose size or content cannot be read (an image of the largest kept size). */
const PAGE_TOKENS = IMAGE_TOKENS;
/** Rendering scale assumed for a page before Anthropic's downscale (points → pixels, 4× = 288 dpi). */
const RENDER_SCALE = 4;

type Source = { type?: unknown; media_type?: unknown; data?: unknown };
const sourceOf = (raw: unknown): Source | undefined => {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const s = (raw as { source?: unknown }).source;
  return typeof s === 'object' && s !== null ? (s as Source) : undefined;
};

/** OpenAI's file parts (`input_file` in Responses, `file` in Chat Completions) carry their bytes as `file_data`. */
const FILE_KINDS = new Set(['input_file', 'file', 'input_audio']);

/** The base64 bytes a file part carries (`file_data` as base64 or a data: URL, or a nested `file.file_data`). */
function fileData(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as { file_data?: unknown; file?: { file_data?: unknown }; input_audio?: { data?: unknown } };
  const d = r.file_data ?? r.file?.file_data ?? r.input_audio?.data;
  if (typeof d !== 'string') return undefined;
  return d.startsWith('data:') ? d.slice(d.indexOf(',') + 1) : d;
}

/** A block whose content is a file (base64 bytes, a URL or a file id) rather than text: a `document` block, or an
 *  OpenAI file part. Its base64 is never counted as text. */
export function isMedia(b: Block): boolean {
  if (b.type !== 'other') return false;
  if (FILE_KINDS.has(b.kind)) return true;
  if (b.kind !== 'document') return false;
  const s = sourceOf(b.raw);
  return s !== undefined && s.type !== 'text' && s.type !== 'content';
}

/** Tokens of a document block's (or file part's) file: pages × (page image + page text) for a readable PDF, else one
 *  page's worth (the size of a file Tierscope cannot read is unknown: an estimate, labelled so by the calibration). */
export function documentTokens(raw: unknown): number {
  const s = sourceOf(raw);
  const b64 = s?.type === 'base64' && typeof s.data === 'string' ? s.data : fileData(raw);
  const bytes = b64 !== undefined ? decodeBase64(b64) : undefined;
  const facts = bytes ? pdfFacts(bytes) : undefined;
  if (!facts) return PAGE_TOKENS;
  const page = anthropicImageTokens(facts.width * RENDER_SCALE, facts.height * RENDER_SCALE);
  return facts.pages * page + Math.round(facts.glyphs / GLYPHS_PER_TOKEN);
}

/** Tokens of the images and documents in a block (an image, a document, or a tool result holding them). */
export function mediaTokens(b: Block): number {
  if (b.type === 'image') return imageTokens(b.source);
  if (isMedia(b)) return documentTokens(b.type === 'other' ? b.raw : undefined);
  if (b.type === 'tool_result' && typeof b.content !== 'string')
    return b.content.reduce((n, x) => n + mediaTokens(x), 0);
  return 0;
}
