// Whether a response that should hold a log file is a web page instead: a development server (vite) answers a path
// it has no file for with the app's own index.html and status 200, so a mistyped `?src=` read as a log "in no format
// we recognise" whose first line is `<!doctype html>`. Said as what it is: no file at that path.

/** Why `res` (fetched from `url`) is not the file asked for, or null when it may be. */
export function servedPageReason(res: { headers: { get(name: string): string | null } }, url: string): string | null {
  const type = res.headers.get('content-type') ?? '';
  if (!/^\s*text\/html\b/i.test(type)) return null;
  let path: string;
  try {
    path = new URL(url, 'http://local/').pathname;
  } catch {
    path = url;
  }
  if (/\.html?$/i.test(path)) return null;
  return 'the server answered with a web page, not the file (is there a file at that path?)';
}
