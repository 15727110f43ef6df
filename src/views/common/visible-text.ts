// Transcript text shown in the UI's one-line places (row previews, tool names, titles, file names, issue
// messages) is made visible before it is rendered (as text, never HTML): bidirectional overrides and isolates,
// zero-width and other invisible format characters, and Unicode tag characters (used to smuggle hidden
// instructions) become `⟨U+202E⟩`-style markers, and C0 control characters their control pictures (␛, ␀), so
// `evil\u202Etxt.exe` cannot pose as `evilexe.txt` and nothing hides between visible letters. A zero-width
// joiner inside an emoji sequence is left alone (it draws one glyph, hides nothing). Monaco, which shows the
// full source, has its own highlighting of such characters (see DetailEditor).

const INVISIBLE =
  /\u034F|[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}]/gu;
// C0 controls but tab, line feed and carriage return, and DEL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const EMOJI_ZWJ = /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu;
const HIDDEN_ZWJ = '\uE000'; // a private-use placeholder while the emoji joiners are set aside

function marker(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return `⟨U+${cp.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** `text` with invisible and direction-changing characters made visible. */
export function visibleText(text: string): string {
  if (!text) return text;
  let s = text;
  CONTROL.lastIndex = 0;
  if (CONTROL.test(s))
    s = s.replace(CONTROL, (c) => (c === '\u007F' ? '␡' : String.fromCharCode(0x2400 + c.charCodeAt(0))));
  INVISIBLE.lastIndex = 0;
  if (!INVISIBLE.test(s)) return s;
  s = s.replace(EMOJI_ZWJ, HIDDEN_ZWJ);
  return s.replace(INVISIBLE, marker).replaceAll(HIDDEN_ZWJ, '\u200D');
}
