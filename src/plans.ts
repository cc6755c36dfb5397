/** Subscription plans as data: monthly word quotas (UTC calendar months) and call caps. */

/** One plan: words per UTC calendar month and an optional lifetime cap on calls. */
export interface Plan {
  readonly id: PlanId;
  readonly wordsPerMonth: number;
  /** Total successful calls allowed over the key's lifetime; null means unlimited. */
  readonly callLimit: number | null;
  /**
   * Requests per minute (RateLimit-Policy q, w=60): all of them may come at once, then one every
   * 60/requestsPerMinute s (src/modules/rate). Every authenticated request counts; refused ones do not.
   */
  readonly requestsPerMinute: number;
}

/** Every plan id, cheapest first. */
export const PLAN_IDS = ['trial', 'free', 'essential', 'premium', 'professional', 'enterprise'] as const;
/** Identifier of a plan as stored on a key. */
export type PlanId = (typeof PLAN_IDS)[number];

const FREE_WORDS = 10_000;

/**
 * The plan table. Trial shares free's word quota and is capped at 500 calls in total. Request
 * rates: a free key gets a burst of 60 and then one a second (issue 28: it answered 500 calls in
 * 1.8 s); each paid tier more. Enterprise's 60,000 a minute is far above what one server answers
 * on 2 cores (~7,500 detections/s): a fairness bound, not a product limit, and what `bun run bench`
 * drives through the limiter without a refusal.
 */
export const PLANS: Readonly<Record<PlanId, Plan>> = Object.freeze({
  trial: { id: 'trial', wordsPerMonth: FREE_WORDS, callLimit: 500, requestsPerMinute: 60 },
  free: { id: 'free', wordsPerMonth: FREE_WORDS, callLimit: null, requestsPerMinute: 60 },
  essential: { id: 'essential', wordsPerMonth: 60_000, callLimit: null, requestsPerMinute: 300 },
  premium: { id: 'premium', wordsPerMonth: 180_000, callLimit: null, requestsPerMinute: 600 },
  professional: { id: 'professional', wordsPerMonth: 360_000, callLimit: null, requestsPerMinute: 1_200 },
  enterprise: { id: 'enterprise', wordsPerMonth: 15_000_000, callLimit: null, requestsPerMinute: 60_000 },
});

/** True when the string names a plan. */
export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

/** The plan for an id read from the database; throws on an unknown id (a corrupt row). */
export function planFor(id: string): Plan {
  if (!isPlanId(id)) throw new Error(`unknown plan "${id}"`);
  return PLANS[id];
}
