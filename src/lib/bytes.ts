// Byte counts as messages write them ("20 bytes", "1.5 KB", "256 MB", "2 GB"): the parsers' limit issues and
// the page's limit checks use the same words, so a refusal reads the same wherever it is made.

export function formatBytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : Number(v.toFixed(1))} ${units[u]}`;
}
