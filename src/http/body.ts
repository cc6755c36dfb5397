/** Reads a JSON request body with a byte limit, without trusting Content-Length alone. */
import { ApiError } from './errors';

/** True for application/json and application/*+json (RFC 6839 structured syntax suffix). */
export function isJsonType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** True for multipart/form-data. */
export function isMultipartType(contentType: string | null): boolean {
  return (contentType ?? '').split(';')[0].trim().toLowerCase() === 'multipart/form-data';
}

/** The body as text; 413 `payload_too_large` past `maxBytes` (declared or actually streamed). */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const header = request.headers.get('content-length');
  if (header !== null) {
    // HTTP framing makes a declared length exact, so the fast path cannot overrun the limit.
    if (Number(header) > maxBytes) throw new ApiError('payload_too_large', { limit: maxBytes });
    return request.text();
  }
  return Buffer.from((await readBodyBytes(request, maxBytes)).buffer).toString('utf8');
}

/** The body as bytes; 413 `payload_too_large` past `maxBytes`, declared or counted while streaming. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw new ApiError('payload_too_large', { limit: maxBytes });
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ApiError('payload_too_large', { limit: maxBytes });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total) as Uint8Array<ArrayBuffer>;
}

/** Parses JSON text; 400 `invalid_json` on a syntax error or an empty body. */
export function parseJson(text: string): unknown {
  try {
    // RFC 8259 §8.1 forbids a BOM but allows parsers to ignore one; editors on Windows add it.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new ApiError('invalid_json');
  }
}
