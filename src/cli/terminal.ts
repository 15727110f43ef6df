// What the CLI writes to a terminal must not steer it: a thread title, a file name or a quoted line from a
// stranger's log can hold ESC sequences (OSC 52 writes the clipboard, CSI moves the cursor or hides text),
// C1 controls, or bidi overrides that reorder what is shown. Text output shows each as a visible escape
// (`\x1b`, `\u202e`); JSON output writes the same characters as JSON `\u` escapes (same value, valid JSON).

/** C0 controls but tab and line feed, DEL, C1 controls, and the invisible format characters that reorder or
 *  hide text (bidi marks, embeddings, overrides and isolates, zero-width characters, line/paragraph
 *  separators, BOM). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const STEERING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
/** The same, line feeds and carriage returns included: for a value that must stay on its line. */
const STEERING_OR_BREAK =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');
const visible = (c: string) =>
  c === '\n' ? '\\n' : c === '\r' ? '\\r' : c < '\u0100' ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`;

/** Terminal text: every steering character shown as an escape; line breaks and tabs kept. */
export function terminalText(s: string): string {
  return s.replace(STEERING, visible);
}

/** One line of terminal text: line breaks inside it are shown as `\n` too, so a value cannot forge a line. */
export function terminalLine(s: string): string {
  return s.replace(STEERING_OR_BREAK, visible);
}

/** JSON text (JSON.stringify's output) with the steering characters it leaves raw (DEL, C1, format
 *  characters) written as `\uXXXX`: they occur only inside strings, so the value is unchanged. */
export function terminalJson(s: string): string {
  return s.replace(STEERING, (c) => `\\u${hex(c, 4)}`);
}
