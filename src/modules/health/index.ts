/** Health module: GET /health, no key needed. */
import { Elysia, t, type Static } from 'elysia';
import pkg from '../../../package.json';

/** Version reported by /health and --version (from package.json, embedded at build time). */
export const VERSION: string = pkg.version;

/** The 200 body of GET /health. */
export const HealthSchema = t.Object({ status: t.Literal('ok'), version: t.String({ description: 'Package version.' }) });

/** Elysia plugin mounting GET /health -> { status: 'ok', version }. */
export function healthModule() {
  return new Elysia({ name: 'health' }).get(
    '/health',
    function health(): Static<typeof HealthSchema> {
      return { status: 'ok', version: VERSION };
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
                schema: HealthSchema,
                example: { status: 'ok', version: VERSION },
              },
            },
          },
          // 404/405/500, documented once in the docs module's components (src/modules/detect/openapi.ts).
          default: { $ref: '#/components/responses/Error' },
        },
      },
    },
  );
}
