/**
 * Metrics module: GET /metrics in Prometheus's text exposition format, one view of every WORKERS
 * process (src/metrics/cluster.ts). Optionally behind a Bearer token (METRICS_TOKEN, RFC 6750).
 * An operator's endpoint, not part of the client API: it is left out of the OpenAPI document,
 * and its 401 and 503 are plain text, as a scraper reads them.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Elysia } from 'elysia';
import { MetricsUnavailableError, type MetricsView } from '../../metrics/cluster';

/** Where the metrics are served. */
export const METRICS_PATH = '/metrics';

/** Options of the metrics module. */
export interface MetricsModuleOptions {
  view: MetricsView;
  /** The Bearer token a scrape must send, or null for none. */
  token: string | null;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** True when `authorization` is `Bearer <token>` (RFC 6750 §2.1; the scheme is case-insensitive), compared in constant time. */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const match = /^bearer +(\S+) *$/i.exec(authorization ?? '');
  // Digests have one length, so the comparison takes the same time whatever was sent.
  return match !== null && timingSafeEqual(digest(match[1]), digest(token));
}

function text(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers } });
}

/** Elysia plugin mounting GET /metrics. */
export function metricsModule({ view, token }: MetricsModuleOptions) {
  const challenge = { 'www-authenticate': 'Bearer realm="metrics"' };
  return new Elysia({ name: 'metrics' }).get(
    METRICS_PATH,
    async function metrics({ request }) {
      if (token !== null && !bearerMatches(request.headers.get('authorization'), token)) {
        const sent = request.headers.has('authorization');
        // RFC 6750 §3: no credentials gets the bare challenge; wrong ones say invalid_token.
        return text(
          'Unauthorized: send Authorization: Bearer <METRICS_TOKEN>.\n',
          401,
          sent ? { 'www-authenticate': 'Bearer realm="metrics", error="invalid_token"' } : challenge,
        );
      }
      try {
        const { text: body, contentType } = await view.render();
        return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
      } catch (error) {
        if (!(error instanceof MetricsUnavailableError)) throw error;
        return text(`Metrics unavailable: ${error.message}; try again.\n`, 503, { 'retry-after': '1' });
      }
    },
    { detail: { hide: true } },
  );
}
