/**
 * The byte-level reading and writing of the reference file (./reference.ts): little-endian u32 and
 * float64, unsigned LEB128 varints of up to 32 bits, and strictly ascending 32-bit indexes as Rice
 * codes of their gaps. The reader throws an Error on any read past the end, an over-long varint or
 * code, a non-finite number or indexes that do not ascend: a truncated or altered file never decodes.
 *
 * Why Rice codes: a text's n-gram indexes are ~5 a word, hashed uniformly over 22 bits, so their gaps
 * are near-geometric (mean 4,000-40,000); a Rice code with its parameter set from the mean gap spends
 * about log2(mean) + 1.5 bits on one, against 16-24 for a byte varint: the file is ~20% smaller
 * (model/README.md, "Reference writers").
 */

/** The high word of the quiet NaN every NaN is written as (0x7ff8000000000000), so equal sets give equal bytes. */
const CANONICAL_NAN_HIGH = 0x7ff80000;

/** Largest Rice parameter: a gap of 32 bits never needs more. */
const MAX_RICE_PARAMETER = 31;

/**
 * The Rice parameter for values of this mean: the largest k with 2^k <= mean * ln 2 (near-optimal for
 * geometric values), by float arithmetic only (the same on every machine).
 */
function riceParameter(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  const target = (sum / values.length) * Math.LN2;
  let k = 0;
  while (k < MAX_RICE_PARAMETER && 2 ** (k + 1) <= target) k++;
  return k;
}

/** Longest varint of a 32-bit value (7 bits a byte). */
const MAX_VARINT_BYTES = 5;

/** A growing byte buffer. */
export class ByteWriter {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  private n = 0;

  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(x: number): void {
    this.room(1);
    this.buf[this.n++] = x;
  }

  u32(x: number): void {
    this.room(4);
    this.view.setUint32(this.n, x, true);
    this.n += 4;
  }

  /** A finite float64, or (`nanAllowed`: a measure that was not taken) NaN, written as the one canonical NaN. */
  f64(x: number, nanAllowed = false): void {
    if (!Number.isFinite(x) && !(nanAllowed && Number.isNaN(x))) throw new Error(`reference set: ${x} is not a finite number`);
    this.room(8);
    if (Number.isNaN(x)) {
      this.view.setUint32(this.n, 0, true);
      this.view.setUint32(this.n + 4, CANONICAL_NAN_HIGH, true);
    } else this.view.setFloat64(this.n, x, true);
    this.n += 8;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
  }

  varint(x: number): void {
    if (!Number.isInteger(x) || x < 0 || x > 0xffffffff) throw new Error(`reference set: ${x} is not a 32-bit count`);
    this.room(MAX_VARINT_BYTES);
    let v = x;
    while (v >= 0x80) {
      this.buf[this.n++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.n++] = v;
  }

  /** Strictly ascending indexes under 2^32: their count (varint), then Rice codes of the first and of each gap (see rice). */
  ascending(xs: ArrayLike<number>): void {
    const values: number[] = [];
    for (let k = 0; k < xs.length; k++) {
      const gap = k === 0 ? xs[0] : xs[k] - xs[k - 1];
      if (!Number.isInteger(xs[k]) || xs[k] > 0xffffffff || (k > 0 ? gap < 1 : gap < 0)) {
        throw new Error('reference set: n-gram indexes must be strictly ascending 32-bit integers');
      }
      values.push(gap);
    }
    this.varint(values.length);
    if (values.length) this.rice(values);
  }

  /**
   * Values as Rice codes with one parameter k (u8), then the codes' byte length (varint), then the codes,
   * least significant bit first: per value, floor(v / 2^k) one bits, a zero bit, and v's k low bits; the
   * last byte padded with zero bits. Checks nothing (ascending does): tests write what it never would.
   */
  rice(values: readonly number[]): void {
    const k = riceParameter(values);
    const unit = 2 ** k;
    let bits = 0;
    for (const v of values) bits += Math.floor(v / unit) + 1 + k;
    const length = Math.ceil(bits / 8);
    this.u8(k);
    this.varint(length);
    this.room(length);
    const base = this.n;
    this.buf.fill(0, base, base + length);
    let at = 0;
    for (const v of values) {
      for (let q = Math.floor(v / unit); q > 0; q--, at++) this.buf[base + (at >> 3)] |= 1 << (at & 7);
      at++;
      const low = v % unit;
      for (let j = 0; j < k; j++, at++) if (Math.floor(low / 2 ** j) % 2) this.buf[base + (at >> 3)] |= 1 << (at & 7);
    }
    this.n += length;
  }

  /** The bytes written (a copy of exactly their length). */
  done(): Uint8Array {
    return this.buf.slice(0, this.n);
  }
}

/** Reads a byte array front to back; every read checks that the bytes are there. */
export class ByteReader {
  private at = 0;
  private readonly view: DataView;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  /** Bytes not read yet. */
  left(): number {
    return this.buf.length - this.at;
  }

  private need(k: number): void {
    if (this.at + k > this.buf.length) throw new Error('reference file: truncated');
  }

  u8(): number {
    this.need(1);
    return this.buf[this.at++];
  }

  u32(): number {
    this.need(4);
    const x = this.view.getUint32(this.at, true);
    this.at += 4;
    return x;
  }

  /** A float64 that must be finite, or (`nanAllowed`) NaN; never an infinity. */
  finite(nanAllowed = false): number {
    this.need(8);
    const x = this.view.getFloat64(this.at, true);
    this.at += 8;
    if (!Number.isFinite(x) && !(nanAllowed && Number.isNaN(x))) throw new Error('reference file: a number is not finite');
    return x;
  }

  utf8(length: number): string {
    this.need(length);
    const bytes = this.buf.subarray(this.at, this.at + length);
    this.at += length;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new Error('reference file: text that is not UTF-8');
    }
  }

  /**
   * Fills `out` with strictly ascending indexes written by ByteWriter.ascending (its count already read
   * and `out` that long): refuses a code past its stated length, a gap of 0, an index past 2^32 - 1 or
   * padding that is not zero.
   */
  ascendingInto(out: Uint32Array): void {
    if (!out.length) return;
    const k = this.u8();
    if (k > MAX_RICE_PARAMETER) throw new Error('reference file: n-gram code parameter out of range');
    const length = this.varint();
    this.need(length);
    const buf = this.buf;
    const base = this.at;
    const end = length * 8;
    const unit = 2 ** k;
    let at = 0;
    let x = -1;
    const mask = (1 << k) - 1;
    for (let i = 0; i < out.length; i++) {
      let q = 0;
      let low = 0;
      const byte = base + (at >> 3);
      const shift = at & 7;
      // The usual case (k 8-17, q 0-3): the whole code within the next four bytes, read at once: q is the
      // count of trailing one bits, then a zero, then the k low bits. Else (a long run of ones: the first
      // index, or the last bytes) bit by bit.
      const window =
        byte + 3 < buf.length ? (buf[byte] | (buf[byte + 1] << 8) | (buf[byte + 2] << 16) | (buf[byte + 3] << 24)) >>> shift : 0;
      const zeros = ~window;
      const ones = 31 - Math.clz32(zeros & -zeros);
      if (zeros !== 0 && byte + 3 < buf.length && ones + 1 + k <= 32 - shift && at + ones + 1 + k <= end) {
        q = ones;
        low = (window >>> (ones + 1)) & mask;
        at += ones + 1 + k;
      } else {
        while (at < end && (buf[base + (at >> 3)] >> (at & 7)) & 1) {
          q++;
          at++;
        }
        if (at + 1 + k > end) throw new Error('reference file: truncated n-grams');
        at++;
        for (let got = 0; got < k; ) {
          const take = Math.min(8 - (at & 7), k - got);
          low += ((buf[base + (at >> 3)] >> (at & 7)) & ((1 << take) - 1)) * 2 ** got;
          got += take;
          at += take;
        }
      }
      const step = q * unit + low;
      if (i > 0 && step === 0) throw new Error('reference file: n-gram indexes not ascending');
      x = i === 0 ? step : x + step;
      if (x > 0xffffffff) throw new Error('reference file: n-gram index out of range');
      out[i] = x;
    }
    // The codes end in the last byte, whose unused bits are zero.
    if (end - at >= 8 || (at & 7 && buf[base + (at >> 3)] >> (at & 7))) throw new Error('reference file: bad n-gram padding');
    this.at += length;
  }

  varint(): number {
    let x = 0;
    let scale = 1;
    for (let k = 0; k < MAX_VARINT_BYTES; k++) {
      const b = this.u8();
      x += (b & 0x7f) * scale;
      if (b < 0x80) {
        if (x > 0xffffffff) break;
        return x;
      }
      scale *= 0x80;
    }
    throw new Error('reference file: a count is over 32 bits');
  }
}
