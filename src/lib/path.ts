/** The pathname alone, without query or hash, and without a trailing slash (except "/"). */
export function normalizePath(pathname: string): string {
  const path = pathname.split(/[?#]/, 1)[0] || '/';
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') || '/' : withSlash;
}

/** The path's segments, URI-decoded: "/feeds/home" -> ["feeds", "home"]. */
export function pathSegments(pathname: string): string[] {
  return normalizePath(pathname)
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/**
 * Whether the path decodes (a malformed escape like /%E0%A4%A does not). The decoded text is
 * used, not only attempted: a minifier may drop a call whose result is unused, throw and all.
 */
export function isDecodablePath(pathname: string): boolean {
  try {
    return decodeURIComponent(pathname).length >= 0;
  } catch {
    return false;
  }
}
