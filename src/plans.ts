/** Subscription plans as data: monthly word quotas (UTC calendar months) and call caps. */

/** One plan: words per UTC calendar month and an optional lifetime cap on calls. */
export interface Plan {
  readonly id: PlanId;
  readonly wordsPerMonth: number;
  /** Total successful calls allowed over the key's lifetime; null means unlimited. */
  readonly callLimit: number | null;
}

/** Every plan id, cheapest first. */
export const PLAN_IDS = ['trial', 'free', 'essential', 'premium', 'professional', 'enterprise'] as const;
/** Identifier of a plan as stored on a key. */
export type PlanId = (typeof PLAN_IDS)[number];

const FREE_WORDS = 10_000;

/** The plan table. Trial shares free's word quota and is capped at 500 calls in total. */
export const PLANS: Readonly<Record<PlanId, Plan>> = Object.freeze({
  trial: { id: 'trial', wordsPerMonth: FREE_WORDS, callLimit: 500 },
  free: { id: 'free', wordsPerMonth: FREE_WORDS, callLimit: null },
  essential: { id: 'essential', wordsPerMonth: 60_000, callLimit: null },
  premium: { id: 'premium', wordsPerMonth: 180_000, callLimit: null },
  professional: { id: 'professional', wordsPerMonth: 360_000, callLimit: null },
  enterprise: { id: 'enterprise', wordsPerMonth: 15_000_000, callLimit: null },
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
