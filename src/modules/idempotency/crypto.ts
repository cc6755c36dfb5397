/**
 * What an idempotency record is made of, so that nothing stored is readable (issue 22):
 *
 * - the row id is HMAC-SHA256(API key secret, Idempotency-Key): the database holds only key
 *   hashes, so who reads it cannot tell which key or which idempotency key a row belongs to;
 * - the record key is HKDF-SHA256 over the body's fingerprint and the secret (salt: the row id,
 *   info: the key id): 32 bytes seal the answer with AES-256-GCM (the row id as additional data,
 *   so a ciphertext cannot be moved to another row), 32 more are the `body_check` a retry is
 *   compared with. Only a client that sends the same body with the same key again can derive
 *   them; without the secret, even a guessed text cannot be confirmed against the database.
 *
 * WebCrypto (crypto.subtle) only, per RFC 5869 (HKDF) and NIST SP 800-38D (GCM, 96-bit random IVs).
 */

const encoder = new TextEncoder();
const INFO_PREFIX = 'ai-detector idempotency v1, key ';
/** Bytes of a GCM IV: 96 bits, the size SP 800-38D recommends. */
const IV_BYTES = 12;

/** The keys of one record: the AES-GCM key and the body check. */
export interface RecordKeys {
  aes: CryptoKey;
  bodyCheck: string;
}

const hex = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('hex');

/** The row id: HMAC-SHA256(secret, idempotency key), hex. */
export async function recordId(secret: string, idempotencyKey: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(await crypto.subtle.sign('HMAC', key, encoder.encode(`idempotency-key\0${idempotencyKey}`)));
}

/** The record's keys from the body fingerprint, the secret, the row id and the key id (HKDF-SHA256). */
export async function recordKeys(fingerprint: Uint8Array, secret: string, id: string, keyId: number): Promise<RecordKeys> {
  const ikm = Buffer.concat([fingerprint, encoder.encode(secret)]);
  const base = await crypto.subtle.importKey('raw', ikm, 'HKDF', false, ['deriveBits']);
  const bits = new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(id), info: encoder.encode(`${INFO_PREFIX}${keyId}`) },
      base,
      512,
    ),
  );
  const aes = await crypto.subtle.importKey('raw', bits.slice(0, 32), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
  return { aes, bodyCheck: hex(bits.slice(32)) };
}

/**
 * First byte of a compressed plaintext. Answers kept before issue 29 are JSON text (first byte `{`);
 * since then they are deflated first: a detection's answer of 3.7 KB takes ~1 KB, and a record
 * with its index entries went from 5.2 KB to ~1.7 KB of database.
 */
const DEFLATED = 0x01;

/** base64(IV || AES-GCM(deflated plaintext)), bound to the row id. */
export async function seal(keys: RecordKeys, id: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const deflated = Bun.deflateSync(encoder.encode(plaintext));
  const framed = new Uint8Array(deflated.length + 1);
  framed[0] = DEFLATED;
  framed.set(deflated, 1);
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(id) }, keys.aes, framed);
  return Buffer.concat([iv, new Uint8Array(sealed)]).toString('base64');
}

/** The plaintext of `seal`; rejects when the key, the row or the ciphertext differ. */
export async function unseal(keys: RecordKeys, id: string, sealed: string): Promise<string> {
  const bytes = Buffer.from(sealed, 'base64');
  const plain = new Uint8Array(
    await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES), additionalData: encoder.encode(id) },
      keys.aes,
      bytes.subarray(IV_BYTES),
    ),
  );
  return new TextDecoder().decode(plain[0] === DEFLATED ? Bun.inflateSync(plain.subarray(1)) : plain);
}

/** Fingerprint of a JSON body: SHA-256 of its exact bytes (a retry resends them). */
export function jsonFingerprint(body: string): Uint8Array {
  return new Bun.CryptoHasher('sha256').update('json\0').update(body).digest() as Uint8Array;
}

/**
 * Fingerprint of a multipart body by its content, not its bytes: a client library picks a new
 * boundary (and may reorder part headers) on each retry. Each entry in order: its name, then the
 * file name and SHA-256 of the bytes, or the value. An unparsable body is fingerprinted by its
 * bytes (the batch answers it 400 anyway).
 */
export async function multipartFingerprint(bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<Uint8Array> {
  const hasher = new Bun.CryptoHasher('sha256').update('multipart\0');
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return hasher.update('raw\0').update(bytes).digest() as Uint8Array;
  }
  for (const [name, value] of form.entries() as Iterable<[string, FormDataEntryValue]>) {
    hasher.update(`${name.length}:${name}\0`);
    if (typeof value === 'string') hasher.update(`s${value.length}:${value}\0`);
    else {
      const digest = new Bun.CryptoHasher('sha256').update(new Uint8Array(await value.arrayBuffer())).digest('hex');
      // Bun leaves `name` undefined for `filename=""` and a lone `"` (issue 29: it was a 500).
      const name = value.name ?? '';
      hasher.update(`f${name.length}:${name}\0${digest}\0`);
    }
  }
  return hasher.digest() as Uint8Array;
}
