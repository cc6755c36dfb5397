/** Route table lookups for 405 answers: which methods a path supports. */

/**
 * The route a request path names: one trailing slash is ignored (`/api/detect/` is `/api/detect`),
 * as Elysia's router does (strictPath off); `//` and `/x//` stay as they are (404).
 */
export function routePath(path: string): string {
  return /[^/]\/$/.test(path) ? path.slice(0, -1) : path;
}

/** A mounted route as Elysia lists it in `app.routes`. */
export interface RouteEntry {
  method: string;
  path: string;
}

/** True when `path` is a path of the route `pattern` (`:param` segments match any one segment, `*` the rest). */
export function matchesRoute(pattern: string, path: string): boolean {
  if (pattern === path) return true;
  const want = pattern.split('/');
  const got = path.split('/');
  for (let i = 0; i < want.length; i++) {
    if (want[i] === '*') return true;
    if (i >= got.length) return want[i].endsWith('?');
    if (!want[i].startsWith(':') && want[i] !== got[i]) return false;
  }
  return want.length === got.length;
}

/** Methods mounted on `path` (sorted), e.g. ["GET"]; empty when the path is unknown. */
export function allowedMethods(routes: readonly RouteEntry[], path: string): string[] {
  const methods = new Set<string>();
  const route = routePath(path);
  for (const mounted of routes) if (mounted.method !== 'ALL' && matchesRoute(mounted.path, route)) methods.add(mounted.method);
  return [...methods].sort();
}

/** The pattern of the first mounted route matching `path` with any method (for a 405's metrics label), or null. */
export function routePattern(routes: readonly RouteEntry[], path: string): string | null {
  return routes.find((route) => route.method !== 'ALL' && matchesRoute(route.path, path))?.path ?? null;
}
