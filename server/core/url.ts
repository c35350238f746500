/** An absolute http(s) URL with a host and no whitespace (download links, logos, icons on other hosts). */
export function isHttpUrl(v: string): boolean {
  if (!/^https?:\/\/[^\s/?#\\]+\S*$/i.test(v)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}
