/** Web module: serves the playground page (GET /) and its assets, embedded so the binary needs no files. */
import { Elysia } from 'elysia';
// Text imports are inlined by `bun build --compile`: the page works offline and from the single binary.
import indexHtml from '../../web/index.html' with { type: 'text' };
import stylesCss from '../../web/styles.css' with { type: 'text' };
import appJs from '../../web/bundle/app.js' with { type: 'text' };

/** Cache policy of a versioned asset URL (its `?v=` is a hash of the content, RFC 8246 immutable). */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache policy of the page and of unversioned asset URLs: always revalidate (ETag). */
const REVALIDATE = 'no-cache';
/** The page loads only its own script and stylesheet and talks only to its own origin. */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

interface Asset {
  body: string;
  type: string;
  version: string;
  etag: string;
}

function asset(body: string, type: string): Asset {
  const version = Bun.hash(body).toString(36);
  return { body, type, version, etag: `"${version}"` };
}

const STYLES = asset(stylesCss, 'text/css; charset=utf-8');
const SCRIPT = asset(appJs, 'text/javascript; charset=utf-8');
// HTML imported as text is typed as an HTML bundle by @types/bun: it is a string here.
const PAGE = asset(
  (indexHtml as unknown as string)
    .replace('"/assets/styles.css"', `"/assets/styles.css?v=${STYLES.version}"`)
    .replace('"/assets/app.js"', `"/assets/app.js?v=${SCRIPT.version}"`),
  'text/html; charset=utf-8',
);

/** A 200 with the asset, or a 304 when the client's If-None-Match already names it (RFC 9110 13.1.2). */
function serveAsset(a: Asset, request: Request, cacheControl: string, extra: Record<string, string> = {}): Response {
  const headers = { 'Content-Type': a.type, 'Cache-Control': cacheControl, ETag: a.etag, 'X-Content-Type-Options': 'nosniff', ...extra };
  const match = request.headers.get('if-none-match');
  if (match?.split(',').some((tag) => tag.trim() === a.etag)) return new Response(null, { status: 304, headers });
  return new Response(a.body, { headers });
}

function versioned(a: Asset, request: Request, v: string | undefined): Response {
  return serveAsset(a, request, v === a.version ? IMMUTABLE : REVALIDATE);
}

/** Routes of the playground: GET /, /assets/styles.css, /assets/app.js. Mount with `.use(webRoutes)`. */
export const webRoutes = new Elysia({ name: 'web' })
  .get(
    '/',
    ({ request }) => serveAsset(PAGE, request, REVALIDATE, { 'Content-Security-Policy': PAGE_CSP, 'Referrer-Policy': 'no-referrer' }),
    {
      detail: { hide: true },
    },
  )
  .get('/assets/styles.css', ({ request, query }) => versioned(STYLES, request, query.v), { detail: { hide: true } })
  .get('/assets/app.js', ({ request, query }) => versioned(SCRIPT, request, query.v), { detail: { hide: true } });
