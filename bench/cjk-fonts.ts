// A CJK font for the Chromium phase without installing one on the machine: Debian's fonts-noto-cjk package is
// downloaded (`apt-get download`, no root needed to unpack) and unpacked under bench/out/, and a fontconfig file
// that adds its folder to the system's is written beside it. Chromium reads FONTCONFIG_FILE, so the same browser
// is measured with and without Japanese glyphs. Returns null (with the reason) where the package is unreachable.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const DIR = resolve('bench/out/fonts-cjk');

export function cjkFontConfig(): { file: string; font: string } | { error: string } {
  const conf = `${DIR}/fonts.conf`;
  try {
    if (!existsSync(conf)) {
      mkdirSync(DIR, { recursive: true });
      execFileSync('apt-get', ['download', 'fonts-noto-cjk'], { cwd: DIR, stdio: 'ignore' });
      const deb = readdirSync(DIR).find((f) => f.endsWith('.deb'));
      if (!deb) return { error: 'apt-get download fonts-noto-cjk wrote no package' };
      execFileSync('dpkg', ['-x', deb, 'root'], { cwd: DIR });
      writeFileSync(
        conf,
        `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><include>/etc/fonts/fonts.conf</include><dir>${DIR}/root/usr/share/fonts</dir><cachedir>${DIR}/cache</cachedir></fontconfig>\n`,
      );
    }
    // What a Japanese sans-serif resolves to under this configuration: proof the font is the one used.
    const font = execFileSync('fc-match', ['sans-serif:lang=ja'], {
      env: { ...process.env, FONTCONFIG_FILE: conf },
      encoding: 'utf8',
    }).trim();
    return { file: conf, font };
  } catch (e) {
    return { error: String((e as Error).message ?? e).split('\n')[0] };
  }
}

/** What a Japanese sans-serif resolves to with the machine's own fonts. */
export function systemCjkFont(): string {
  try {
    return execFileSync('fc-match', ['sans-serif:lang=ja'], { encoding: 'utf8' }).trim();
  } catch {
    return 'fc-match unavailable';
  }
}
