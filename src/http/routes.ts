/** Route table lookups for 405 answers: which methods a path supports. */

/** A mounted route as Elysia lists it in `app.routes`. */
export interface RouteEntry {
  method: string;
  path: string;
}

function matches(pattern: string, path: string): boolean {
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
  for (const route of routes) if (route.method !== 'ALL' && matches(route.path, path)) methods.add(route.method);
  return [...methods].sort();
}

/** The pattern of the first mounted route matching `path` with any method (for a 405's metrics label), or null. */
export function routePattern(routes: readonly RouteEntry[], path: string): string | null {
  return routes.find((route) => route.method !== 'ALL' && matches(route.path, path))?.path ?? null;
}
