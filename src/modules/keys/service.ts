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

/** Raised by resolveKey when a prefix matches several keys. */
export class AmbiguousKeyError extends Error {
  override name = 'AmbiguousKeyError';
}

/** Creates a key on a plan and returns its secret (shown once). */
export async function createKey(keys: KeyStore, options: { plan: PlanId; name?: string | null }, now: number = Date.now()): Promise<CreatedKey> {
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

async function summarize(quota: QuotaStore, row: ApiKey, now: number): Promise<KeySummary> {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    prefix: row.prefix,
    status: row.status,
    wordsUsedThisMonth: (await getQuotaState(quota, row, now)).used,
    createdAt: row.createdAt,
  };
}

/** All keys, newest first, with this month's words. */
export async function listKeys(stores: Pick<KeyAdminStores, 'keys' | 'quota'>, now: number = Date.now()): Promise<KeySummary[]> {
  const rows = await stores.keys.list();
  return Promise.all(rows.map((row) => summarize(stores.quota, row, now)));
}

/** The key with this numeric id, display prefix (or start of one) or full secret; null if none. */
export async function resolveKey(keys: KeyStore, idOrPrefix: string): Promise<ApiKey | null> {
  const ref = idOrPrefix.trim();
  if (/^\d+$/.test(ref)) return Number.isSafeInteger(Number(ref)) ? keys.byId(Number(ref)) : null;
  if (looksLikeKey(ref) && ref.length > keyPrefix(ref).length) return keys.byHash(hashKey(ref));
  if (!/^ak_[0-9A-Za-z]*$/.test(ref) || ref.length < 4) return null;
  const rows = await keys.byPrefixStart(ref, 2);
  if (rows.length > 1) throw new AmbiguousKeyError(`"${ref}" matches more than one key; use the id or a longer prefix`);
  return rows[0] ?? null;
}

/** Revokes a key (idempotent); returns the updated row, or null when no key matches. */
export async function revokeKey(keys: KeyStore, idOrPrefix: string, now: number = Date.now()): Promise<ApiKey | null> {
  const row = await resolveKey(keys, idOrPrefix);
  if (!row) return null;
  if (row.status === 'revoked') return row;
  return keys.revoke(row.id, now);
}

/** Quota and request count of a key. */
export async function keyUsage(stores: KeyAdminStores, row: ApiKey, now: number = Date.now()): Promise<KeyUsage> {
  const [key, quota, requests] = await Promise.all([
    summarize(stores.quota, row, now),
    getQuotaState(stores.quota, row, now),
    stores.usage.countForKey(row.id),
  ]);
  return { key, quota, requests };
}
