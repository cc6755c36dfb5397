/** Health module: GET /health, no key needed. */
import { Elysia, t } from 'elysia';
import pkg from '../../../package.json';

/** Version reported by /health and --version (from package.json, embedded at build time). */
export const VERSION: string = pkg.version;

/** Elysia plugin mounting GET /health -> { status: 'ok', version }. */
export function healthModule() {
  return new Elysia({ name: 'health' }).get(
    '/health',
    function health() {
      return { status: 'ok' as const, version: VERSION };
    },
    {
      detail: {
        tags: ['Service'],
        summary: 'Liveness check',
        description: 'Answers without an API key.',
        security: [],
        responses: {
          200: {
            description: 'The service is up.',
            content: {
              'application/json': {
                schema: t.Object({ status: t.Literal('ok'), version: t.String({ description: 'Package version.' }) }),
                example: { status: 'ok', version: VERSION },
              },
            },
          },
        },
      },
    },
  );
}
