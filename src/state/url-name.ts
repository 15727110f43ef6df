// The file name a URL's path ends in (what `?src=` and a loaded URL are called), decoded when it decodes: a path
// like `/%ZZ.jsonl` is not valid percent-encoding, and `decodeURIComponent` throwing at start-up left a blank app.

/** The last path segment of `url` (query and fragment dropped), percent-decoded unless that fails. */
export function urlFileName(url: string): string {
  const last = url.split(/[?#]/, 1)[0].split('/').pop() || url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
