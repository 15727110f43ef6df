// What a PDF holds that its token cost depends on, read from its bytes without rendering: the pages (count and
// size) and how much text their content streams show. Anthropic's PDF support turns every page into an image and
// extracts its text beside it ("PDF support": each page is billed as an image plus its text), so a `document`
// block costs per page, never its base64. Object and content streams are inflated with fflate (FlateDecode);
// other filters are left unread (their text is not counted; the page images still are).
import { unzlibSync } from 'fflate';

export type PdfFacts = {
  pages: number;
  /** Size of the first page, in PDF points (1/72 inch); US letter when the file names none. */
  width: number;
  height: number;
  /** Characters shown by the text operators of every content stream (glyphs; spaces as kerning are not seen). */
  glyphs: number;
};

const LETTER = { width: 612, height: 792 };
/** Streams bigger than this are not inflated (a hostile or huge file still costs its pages, never a hang). */
const MAX_STREAM = 8 << 20;
const MAX_TOTAL = 64 << 20;

function latin1(bytes: Uint8Array, from = 0, to = bytes.length): string {
  let s = '';
  for (let i = from; i < to; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, Math.min(to, i + 0x8000)));
  return s;
}

/** Every stream's dictionary and its (inflated when FlateDecode) body, as latin1 text. */
function* streams(raw: string, bytes: Uint8Array): Generator<{ dict: string; body: string }> {
  const re = /stream\r?\n/g;
  let budget = MAX_TOTAL;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const start = m.index + m[0].length;
    const dictStart = raw.lastIndexOf('<<', m.index);
    const dict = dictStart >= 0 ? raw.slice(dictStart, m.index) : '';
    const end = raw.indexOf('endstream', start);
    if (end < 0) return;
    re.lastIndex = end + 9;
    if (end - start > MAX_STREAM || budget <= 0) continue;
    let body: string;
    if (/\/FlateDecode/.test(dict)) {
      try {
        const out = unzlibSync(bytes.subarray(start, end));
        budget -= out.length;
        body = latin1(out);
      } catch {
        continue;
      }
    } else if (/\/Filter/.test(dict)) continue;
    else body = raw.slice(start, end);
    yield { dict, body };
  }
}

/** Characters shown by the string operands of text operators (Tj, TJ, ', ") between BT and ET. */
function shownGlyphs(content: string, twoByte: boolean): number {
  let n = 0;
  const blocks = content.match(/BT[\s\S]*?ET/g) ?? [];
  for (const bt of blocks) {
    for (const lit of bt.match(/\((?:\\.|[^\\)])*\)/g) ?? []) n += lit.length - 2 - (lit.match(/\\/g)?.length ?? 0);
    for (const hex of bt.match(/<[0-9A-Fa-f\s]+>/g) ?? []) {
      const digits = hex.replace(/[^0-9A-Fa-f]/g, '').length;
      n += Math.ceil(digits / (twoByte ? 4 : 2));
    }
  }
  return n;
}

/** Pages, first page size and shown glyphs of a PDF; undefined when the bytes are not a PDF. */
export function pdfFacts(bytes: Uint8Array): PdfFacts | undefined {
  const raw = latin1(bytes);
  if (!raw.startsWith('%PDF')) return undefined;
  const twoByte = /\/Identity-H/.test(raw);
  let pages = 0;
  let box: RegExpExecArray | null = null;
  let glyphs = 0;
  const countPages = (text: string) => {
    pages += text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
    box ??= /\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/.exec(text);
  };
  countPages(raw.replace(/stream\r?\n[\s\S]*?endstream/g, ''));
  for (const s of streams(raw, bytes)) {
    if (/\/ObjStm/.test(s.dict)) countPages(s.body);
    else if (/BT[\s\S]*ET/.test(s.body)) glyphs += shownGlyphs(s.body, twoByte);
  }
  const b = box as RegExpExecArray | null;
  const size = b ? { width: Number(b[3]) - Number(b[1]), height: Number(b[4]) - Number(b[2]) } : LETTER;
  const ok = (x: number) => Number.isFinite(x) && x > 0;
  return {
    pages: Math.max(1, pages),
    width: ok(size.width) ? size.width : LETTER.width,
    height: ok(size.height) ? size.height : LETTER.height,
    glyphs,
  };
}
