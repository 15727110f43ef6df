// Script-preserving filler for redaction: every word-run of a text (letters, digits, marks) is replaced by
// a run of the same length in the same script — ASCII words by harmless dictionary words in the same case
// shape (camelCase stays camelCase), digits by digits, kanji by common kanji, kana by kana, Hangul by
// Hangul — while whitespace and punctuation stay, so token counts stay close. The random stream is the caller's
// (redaction draws a fresh one from the platform's CSPRNG per share): the filler carries no function of the text it
// replaces beyond its length, script and (for words) token count, so a filled PIN or password cannot be guessed back
// by filling candidates. A run never comes out equal to any word of the original content.
import { FILLER_WORDS } from './filler-words.ts';

export type Rng = () => number;

/** Uniform draws in [0, 1) from the platform's CSPRNG (Web Crypto, in browsers, workers and Node), fetched 4 KB at
 *  a time: unpredictable, so nothing about a filler tells what it replaced. */
export function secureRng(): Rng {
  const buf = new Uint32Array(1024);
  let at = buf.length;
  return () => {
    if (at === buf.length) {
      crypto.getRandomValues(buf);
      at = 0;
    }
    return buf[at++] / 4294967296;
  };
}

/** mulberry32: a small, fast, deterministic generator in [0, 1) (tests; never redaction's stream). */
export function rngFrom(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MIN_PART = 2;
const MAX_PART = 9;
/** Runs longer than this are ids, hashes or base64: filled character by character, without token matching. */
const LONG_RUN = 64;
const BY_LENGTH: string[][] = Array.from({ length: MAX_PART + 1 }, () => []);
for (const w of FILLER_WORDS) if (w.length >= MIN_PART && w.length <= MAX_PART) BY_LENGTH[w.length].push(w);

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const ACCENTED = 'àáâäãåçèéêëìíîïñòóôöõùúûüýÿ';
const HIRAGANA =
  'あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんがぎぐげござじずぜぞだでどばびぶべぼ';
const KATAKANA =
  'アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲンガギグゲゴザジズゼゾダデドバビブベボ';
const HAN =
  '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴切纪考图怕朝停';
const HANGUL =
  '가각간갈감강개거건걸검게겨견결경계고곡곤골공과관광교구국군굴궁권귀그극근글금기길김까나낙난날남내너널네년노논농누눈느는니다단달담당대더던도독돌동두드들등디따라락란람랑래러런레려력련로록론료루류르른를름리린림마막만말망매머먼메면명모목몰무문물미민바박반발방배버번법벽변별병보복본봉부북분불비빈사산살상새서석선설성세소속손송수숙순술스습시식신실심아악안알암압앙애야약양어억언얼엄업에여역연열염영예오옥온올와완왕외요용우운울원월위유육윤은을음의이인일임입자작잔장재저적전절점정제조족존종좌주죽준중지직진질집차착찬참창채책처천철청체초촌총최추축춘출충취치친칠카타탄탑태터토통투트특파판패편평포표품프피필하학한할함합항해행향허헌험현형호혼홍화확환활황회효후훈휘흐흑흥희히';
const AT = (s: string) => Array.from(s);
const HIRAGANA_A = AT(HIRAGANA);
const KATAKANA_A = AT(KATAKANA);
const HAN_A = AT(HAN);
const HANGUL_A = AT(HANGUL);
const ACCENTED_A = AT(ACCENTED);
const LOWER_A = AT(LOWER);

const IS_LETTER = /\p{L}/u;
const IS_UPPER = /\p{Lu}/u;
const IS_DIGIT = /\p{Nd}/u;
const IS_GREEK = /\p{Script=Greek}/u;

function choose<T>(xs: readonly T[], rng: Rng): T {
  return xs[Math.floor(rng() * xs.length)];
}

function inRange(rng: Rng, lo: number, hi: number): string {
  return String.fromCodePoint(lo + Math.floor(rng() * (hi - lo + 1)));
}

/** A letter of the same script (and case, and UTF-16 width) as `ch`; digits become digits; marks, other
 *  numbers, punctuation, symbols and whitespace are returned unchanged. */
export function swapChar(ch: string, rng: Rng): string {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp >= 0x30 && cp <= 0x39) return String.fromCharCode(0x30 + Math.floor(rng() * 10));
  if (cp >= 0x61 && cp <= 0x7a) return choose(LOWER_A, rng);
  if (cp >= 0x41 && cp <= 0x5a) return choose(LOWER_A, rng).toUpperCase();
  if (IS_DIGIT.test(ch)) {
    let zero = cp;
    for (let k = 0; k < 9 && IS_DIGIT.test(String.fromCodePoint(zero - 1)); k++) zero--;
    return String.fromCodePoint(zero + Math.floor(rng() * 10));
  }
  if (!IS_LETTER.test(ch)) return ch;
  const upper = IS_UPPER.test(ch);
  if (cp >= 0xc0 && cp <= 0x24f) {
    const c = choose(ACCENTED_A, rng);
    return upper ? c.toUpperCase() : c;
  }
  if (cp >= 0x400 && cp <= 0x4ff) return upper ? inRange(rng, 0x410, 0x42f) : inRange(rng, 0x430, 0x44f);
  if (cp >= 0x370 && cp <= 0x3ff && IS_GREEK.test(ch))
    return upper ? inRange(rng, 0x391, 0x3a1) : inRange(rng, 0x3b1, 0x3c1);
  if (cp >= 0x3041 && cp <= 0x309f) return choose(HIRAGANA_A, rng);
  if (cp >= 0x30a1 && cp <= 0x30ff) return cp === 0x30fc ? ch : choose(KATAKANA_A, rng);
  if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0xf900 && cp <= 0xfaff))
    return choose(HAN_A, rng);
  if (cp >= 0x20000 && cp <= 0x2ffff) return inRange(rng, 0x20000, 0x2a6df);
  if (cp >= 0xac00 && cp <= 0xd7a3) return choose(HANGUL_A, rng);
  if (cp >= 0x600 && cp <= 0x6ff) return inRange(rng, 0x628, 0x64a);
  if (cp >= 0x5d0 && cp <= 0x5ea) return inRange(rng, 0x5d0, 0x5ea);
  if (cp >= 0x900 && cp <= 0x97f) return inRange(rng, 0x915, 0x939);
  if (cp >= 0xe00 && cp <= 0xe7f) return inRange(rng, 0xe01, 0xe2e);
  // Any other script: a letter of the same script and case from the same 128-code-point block, same width.
  const script = scriptOf(ch);
  const block = cp & ~0x7f;
  const pool: string[] = [];
  for (let c = block; c < block + 128; c++) {
    const x = String.fromCodePoint(c);
    if (c !== cp && IS_LETTER.test(x) && IS_UPPER.test(x) === upper && x.length === ch.length && scriptOf(x) === script)
      pool.push(x);
  }
  return pool.length > 0 ? choose(pool, rng) : ch;
}

const SCRIPTS = (
  'Latin Greek Cyrillic Armenian Hebrew Arabic Syriac Thaana Nko Devanagari Bengali Gurmukhi Gujarati Oriya Tamil ' +
  'Telugu Kannada Malayalam Sinhala Thai Lao Tibetan Myanmar Georgian Hangul Ethiopic Cherokee Canadian_Aboriginal ' +
  'Ogham Runic Khmer Mongolian Hiragana Katakana Bopomofo Han Yi Tifinagh Javanese Balinese Coptic'
)
  .split(' ')
  .map((name) => ({ name, re: new RegExp(`^\\p{Script=${name}}$`, 'u') }));

function scriptOf(ch: string): string {
  return SCRIPTS.find((s) => s.re.test(ch))?.name ?? 'other';
}

function shape(word: string, piece: string): string {
  if (piece.length > 1 && piece === piece.toUpperCase()) return word.toUpperCase();
  if (piece[0] !== piece[0].toLowerCase()) return word[0].toUpperCase() + word.slice(1);
  return word;
}

/** Dictionary words (in `piece`'s case shape) totalling exactly piece.length letters, in `parts`+ words. */
function composeWord(piece: string, rng: Rng, extraParts: number): string {
  const n = piece.length;
  if (n < MIN_PART) return swapChar(piece, rng);
  const lo = Math.ceil(n / MAX_PART);
  const p = Math.min(Math.floor(n / MIN_PART), lo + extraParts);
  const base = Math.floor(n / p);
  const rem = n - base * p;
  const start = Math.floor(rng() * p);
  let out = '';
  for (let i = 0; i < p; i++) {
    const len = base + ((i + start) % p < rem ? 1 : 0);
    out += choose(BY_LENGTH[len], rng);
  }
  return shape(out, piece);
}

const ASCII_PIECES = /[A-Z]+(?![a-z])|[A-Z][a-z]*|[a-z]+/g;
const VARIANT_EXTRA = [0, 1, 0, 2, 0, 1, 0, 3];

/** One filler candidate for a word-run. `variant` changes how many dictionary words long pieces split into. */
function fillRun(run: string, rng: Rng, variant = 0): string {
  if (run.length > LONG_RUN) {
    let out = '';
    for (const ch of run) out += swapChar(ch, rng);
    return out;
  }
  let out = '';
  let i = 0;
  while (i < run.length) {
    const c = run.charCodeAt(i);
    const isAsciiLetter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!isAsciiLetter) {
      const ch = String.fromCodePoint(run.codePointAt(i) ?? c);
      out += swapChar(ch, rng);
      i += ch.length;
      continue;
    }
    let j = i;
    while (j < run.length && /[A-Za-z]/.test(run[j])) j++;
    for (const m of run.slice(i, j).matchAll(ASCII_PIECES))
      out += composeWord(m[0], rng, VARIANT_EXTRA[variant % VARIANT_EXTRA.length]);
    i = j;
  }
  return out;
}

/** Maximal runs of letters, digits and combining marks: the unit of filling, and of "a word". */
const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;

/** Lowercased words of ≥ 4 characters in a text (what filler must never reproduce). */
export function wordsOf(text: string, into: Set<string>): void {
  for (const m of text.matchAll(WORD_RUN)) if (m[0].length >= 4) into.add(m[0].toLowerCase());
}

export type FillContext = {
  /** The random stream filler is drawn from (secureRng for shares). */
  rng: Rng;
  /** Lowercased ≥ 4-character words of the original content; no filled run may equal one. */
  vocab: ReadonlySet<string>;
  /** Exact token counter; when given, each run takes the candidate whose count is closest to the original's. */
  count?: (text: string) => number;
};

/** Fill one run (deterministic given `rng`'s state), avoiding the original vocabulary. */
function fillOne(run: string, before: string, rng: Rng, ctx: FillContext): string {
  const hasAscii = /[A-Za-z]/.test(run) && run.length <= LONG_RUN;
  const tries = ctx.count && hasAscii ? 8 : 1;
  // o200k/cl100k pre-tokenization glues one leading non-letter (space, dot, slash…) to a word: count with it.
  const pre = before !== '' && !/[\r\n\p{L}\p{N}]/u.test(before) ? before : '';
  const target = ctx.count && tries > 1 ? ctx.count(pre + run) : 0;
  let best: string | undefined;
  let bestDelta = Infinity;
  for (let k = 0; k < 64 && (k < tries || best === undefined); k++) {
    const cand = fillRun(run, rng, k);
    if (run.length >= 4 && ctx.vocab.has(cand.toLowerCase())) continue;
    if (tries === 1 || !ctx.count) return cand;
    const delta = Math.abs(ctx.count(pre + cand) - target);
    if (delta < bestDelta) {
      best = cand;
      bestDelta = delta;
      if (delta === 0) break;
    }
  }
  if (best !== undefined) return best;
  // 64 dictionary draws all collided (tiny runs in a huge vocabulary): fall back to random characters.
  for (;;) {
    let cand = '';
    for (const ch of run) cand += swapChar(ch, rng);
    if (!ctx.vocab.has(cand.toLowerCase())) return cand;
  }
}

/** Half-open [start, end) UTF-16 range of a text. */
export type Span = { start: number; end: number };

/** Fill every word-run of `text` outside the `keep` spans (sorted, non-overlapping). Same length in
 *  code points and in UTF-16 units, same script per character, punctuation and whitespace untouched. */
export function fillText(text: string, ctx: FillContext, keep: readonly Span[] = []): string {
  const rng = ctx.rng;
  let out = '';
  let at = 0;
  let k = 0;
  for (const m of text.matchAll(WORD_RUN)) {
    const start = m.index;
    const end = start + m[0].length;
    while (k < keep.length && keep[k].end <= start) k++;
    out += text.slice(at, start);
    if (k < keep.length && keep[k].start < end) {
      // A kept span overlaps this run: keep the overlapping part, fill the rest piecewise.
      let pos = start;
      for (let q = k; q < keep.length && keep[q].start < end; q++) {
        const s = Math.max(pos, keep[q].start);
        if (s > pos) out += fillOne(text.slice(pos, s), text[pos - 1] ?? '', rng, ctx);
        const e = Math.min(end, keep[q].end);
        out += text.slice(s, e);
        pos = e;
      }
      if (pos < end) out += fillOne(text.slice(pos, end), text[pos - 1] ?? '', rng, ctx);
    } else {
      out += fillOne(m[0], text[start - 1] ?? '', rng, ctx);
    }
    at = end;
  }
  return out + text.slice(at);
}

/** A JSON number of the same shape (sign, digit count, decimal point, exponent) with random digits; a leading digit
 *  keeps its class (0 stays 0, another stays non-zero), so the filler has as many digits as the original. */
export function fillNumber(n: number, ctx: FillContext): number {
  if (!Number.isFinite(n)) return n;
  for (let k = 0; k < 16; k++) {
    const out = numberOnce(n, ctx.rng);
    // Like a filled word, never one of the original's words (its 4+ digit numbers included).
    if (String(out).length < 4 || !ctx.vocab.has(String(out))) return out;
  }
  return n === 0 ? 1 : 0;
}

function numberOnce(n: number, rng: Rng): number {
  let out = '';
  let lead = true;
  for (const ch of String(n)) {
    if (ch >= '0' && ch <= '9') {
      out += lead ? (ch === '0' ? '0' : String(1 + Math.floor(rng() * 9))) : String(Math.floor(rng() * 10));
      lead = false;
    } else {
      out += ch;
      if (ch === 'e') lead = true;
    }
  }
  const filled = Number(out);
  return Number.isFinite(filled) ? filled : n;
}
