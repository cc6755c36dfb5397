/** Key administration over a KeyStore: create, authenticate, list, resolve by id or prefix, revoke, usage. */
import type { PlanId } from '../../plans';
import type { ApiKey, KeyStore, QuotaStore, UsageSink } from '../../store/types';
import { getQuotaState, type QuotaState } from '../quota';
import { generateKey, hashKey, keyPrefix, looksLikeKey } from './secret';

/** A freshly created key: the secret is returned once and never stored. */
export interface CreatedKey {
  id: number;
  key: string;
  prefix: string;
  plan: PlanId;
  name: string | null;
}

/** One line of `keys list`: never the secret. */
export interface KeySummary {
  id: number;
  name: string | null;
  plan: string;
  prefix: string;
  status: 'active' | 'revoked';
  wordsUsedThisMonth: number;
  createdAt: number;
}

/** Usage report of one key. */
export interface KeyUsage {
  key: KeySummary;
  quota: QuotaState;
  /** Requests recorded in usage_events (all statuses). */
  requests: number;
}

/** The stores key administration reads. */
export interface KeyAdminStores {
  keys: KeyStore;
  quota: QuotaStore;
  usage: UsageSink;
}

/** How many of the keys an ambiguous prefix matches are named in the error. */
export const AMBIGUOUS_LISTED = 10;

/** Raised by resolveKey when a prefix matches several keys; names them (by id, up to AMBIGUOUS_LISTED). */
export class AmbiguousKeyError extends Error {
  override name = 'AmbiguousKeyError';

  constructor(
    readonly ref: string,
    /** The first matches by id. */
    readonly matches: readonly ApiKey[],
    /** True when more keys match than are listed. */
    readonly more: boolean,
  ) {
    const listed = matches.map((key) => `#${key.id} ${key.prefix}${key.status === 'revoked' ? ' (revoked)' : ''}`).join(', ');
    super(
      `"${ref}" matches ${more ? `more than ${matches.length}` : matches.length} keys: ${listed}${more ? ', ...' : ''}; use the id or a longer prefix`,
    );
  }
}

/** Creates a key on a plan and returns its secret (shown once). */
export async function createKey(
  keys: KeyStore,
  options: { plan: PlanId; name?: string | null },
  now: number = Date.now(),
): Promise<CreatedKey> {
  const key = generateKey();
  const name = options.name ?? null;
  const row = await keys.insert({ name, plan: options.plan, keyHash: hashKey(key), prefix: keyPrefix(key), createdAt: now });
  return { id: row.id, key, prefix: keyPrefix(key), plan: options.plan, name };
}

/** The active key with this secret, or null (unknown, malformed or revoked); malformed secrets never reach the store. */
export async function findActiveKey(keys: KeyStore, secret: string): Promise<ApiKey | null> {
  if (!looksLikeKey(secret)) return null;
  return keys.findActiveByHash(hashKey(secret));
}

function summarize(row: ApiKey, wordsUsedThisMonth: number): KeySummary {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    prefix: row.prefix,
    status: row.status,
    wordsUsedThisMonth,
    createdAt: row.createdAt,
  };
}

/** All keys, newest first, with this month's words. */
export async function listKeys(stores: Pick<KeyAdminStores, 'keys' | 'quota'>, now: number = Date.now()): Promise<KeySummary[]> {
  const rows = await stores.keys.list();
  return Promise.all(rows.map(async (row) => summarize(row, (await getQuotaState(stores.quota, row, now)).used)));
}

/**
 * The key with this numeric id, full secret, or display prefix or any start of one (`ak_3kQ9`,
 * even `ak_`); null if none. A start several keys share throws AmbiguousKeyError naming them.
 */
export async function resolveKey(keys: KeyStore, idOrPrefix: string): Promise<ApiKey | null> {
  const ref = idOrPrefix.trim();
  if (/^\d+$/.test(ref)) return Number.isSafeInteger(Number(ref)) ? keys.byId(Number(ref)) : null;
  if (looksLikeKey(ref) && ref.length > keyPrefix(ref).length) return keys.byHash(hashKey(ref));
  if (!/^ak_[0-9A-Za-z]*$/.test(ref)) return null;
  const rows = (await keys.byPrefixStart(ref, AMBIGUOUS_LISTED + 1)).sort((a, b) => a.id - b.id);
  if (rows.length > 1) throw new AmbiguousKeyError(ref, rows.slice(0, AMBIGUOUS_LISTED), rows.length > AMBIGUOUS_LISTED);
  return rows[0] ?? null;
}

/** Outcome of revokeKey: the row after, and whether it had been revoked before (nothing changed then). */
export interface Revoked {
  key: ApiKey;
  alreadyRevoked: boolean;
}

/** Revokes a key (idempotent: an already revoked key keeps its time); null when no key matches. */
export async function revokeKey(keys: KeyStore, idOrPrefix: string, now: number = Date.now()): Promise<Revoked | null> {
  const row = await resolveKey(keys, idOrPrefix);
  if (!row) return null;
  if (row.status === 'revoked') return { key: row, alreadyRevoked: true };
  const revoked = await keys.revoke(row.id, now);
  return revoked ? { key: revoked, alreadyRevoked: false } : null;
}

/** Quota and request count of a key. */
export async function keyUsage(stores: KeyAdminStores, row: ApiKey, now: number = Date.now()): Promise<KeyUsage> {
  const [quota, requests] = await Promise.all([getQuotaState(stores.quota, row, now), stores.usage.countForKey(row.id)]);
  return { key: summarize(row, quota.used), quota, requests };
}
