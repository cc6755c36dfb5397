/** The contract of GET /v1/usage, in TypeBox: the 200 body (also the OpenAPI component `Usage`). */
import { t, type Static } from 'elysia';
import { Int, StringEnum } from '../../http/schema';
import { PLAN_IDS } from '../../plans';

/** The 200 body of GET /v1/usage. */
export const UsageSchema = t.Object(
  {
    plan: StringEnum(PLAN_IDS, { description: 'The key’s plan.' }),
    period: t.Object(
      {
        start: t.String({ format: 'date-time', description: 'Start of the quota period: 00:00 UTC on the first day of this month.' }),
        end: t.String({
          format: 'date-time',
          description: 'End of the period (exclusive) and time of the next reset: X-RateLimit-Reset, as a date.',
        }),
      },
      { description: 'The UTC calendar month the word quota counts.' },
    ),
    words: t.Object(
      {
        limit: Int({ minimum: 0, description: 'Words per month of the plan (X-RateLimit-Limit).' }),
        used: Int({ minimum: 0, description: 'Words charged this period.' }),
        remaining: Int({ minimum: 0, description: 'Words left this period (X-RateLimit-Remaining).' }),
      },
      { description: 'The monthly word quota.' },
    ),
    calls: t.Object(
      { used: Int({ minimum: 0, description: 'Successful (charged) detection calls this period; a batch is one call.' }) },
      { description: 'Calls this period.' },
    ),
    trial: t.Union(
      [
        t.Object(
          {
            callsLimit: Int({ minimum: 0, description: 'Successful calls a trial key may make in its lifetime.' }),
            callsRemaining: Int({ minimum: 0, description: 'Calls left; they never reset.' }),
          },
          { description: 'The lifetime call cap of a trial key.' },
        ),
        t.Null(),
      ],
      { description: 'The lifetime call cap (trial keys); null for plans without one.' },
    ),
  },
  { description: 'What the key has used and has left. Reading it is not charged.' },
);

/** The 200 body of GET /v1/usage. */
export type Usage = Static<typeof UsageSchema>;
