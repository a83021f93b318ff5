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
