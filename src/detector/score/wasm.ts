/**
 * The only code that touches the wasm core's exports. Text goes in through a wasm-owned UTF-16
 * buffer (no asc string bindings: they are slow and leak); results come back through typed-array
 * views that are recreated whenever linear memory grows.
 *
 * One failure must never break the core for the requests after it (issue 40: a text of 2^24 + 1
 * characters grew the text regions past 2 GiB, the pointers came back negative, a view could not be
 * made and every later call failed until a restart). So: a text over the limit is refused before
 * anything is touched; a failed grow leaves the old regions in use; the views are swapped in only
 * once all of them are made; and any error thrown from inside a call (a trap, an abort, a view that
 * cannot be made) rebuilds the instance from the compiled module and the setup it was given
 * (channels, weights, lexicon phrases), which are kept for that. A rebuild that fails is retried
 * before the next call; meanwhile every call throws CoreUnavailableError.
 */
import { DEFAULT_MAX_TEXT_CHARS, MAX_TEXT_CHARS_CEILING, TextTooLongError } from '../../contract/text-length';
import type { ProseView } from './presentation';
import { DOC_COUNTERS, PARA_WORDS32, SENT_FEATURES, SENT_WORDS32, TOKEN_WORDS32 } from './layout';

interface CoreExports {
  memory: WebAssembly.Memory;
  setupTables(weightBits: number, lexBits: number): number;
  reserveText(cap: number): number;
  featureVersion(): number;
  setChannels(c: number): void;
  analyze(n: number, lang: number, emit: number, pieces: number, close: number): number;
  addPhrase(n: number, lang: number, bits: number): number;
  tokenCount(): number;
  textPtr(): number;
  textCap(): number;
  weightsPtr(): number;
  lutPtr(): number;
  tokPtr(): number;
  sentPtr(): number;
  sentFeatPtr(): number;
  paraPtr(): number;
  docPtr(): number;
  featPtr(): number;
  viewPtr(): number;
}

/** Read-only views of one analysis, valid until the next call into the core. */
export interface CoreViews {
  sentences: Uint32Array;
  sentFeatures: Float32Array;
  paragraphs: Uint32Array;
  doc: Uint32Array;
  tokens: Uint32Array;
  feats: Uint32Array;
}

/** Piece count that tells the core the text is its own prose view (assembly/prose.ts WHOLE). */
const WHOLE_TEXT = 0xffffffff;

/** Lexicon table size (2^13 slots): room for ~8k vocabulary and lexicon entries at a low load factor. */
export const LEX_BITS = 14;

/** Smallest text capacity the core reserves (its own first reservation, assembly/layout.ts setupTables). */
const MIN_TEXT_CAP = 4096;

/** The core cannot take a text now: its memory could not grow (the old regions are still in use), or it is broken and could not be rebuilt. */
export class CoreUnavailableError extends Error {
  override name = 'CoreUnavailableError';
}

/** What the core was given after instantiation, replayed into a rebuilt instance. */
interface CoreSetup {
  channels: number | null;
  weights: { codes: Uint8Array; lut: Float32Array } | null;
  phrases: Array<{ phrase: string; lang: number; bits: number }>;
}

/** Options of a core. */
export interface WasmCoreOptions {
  /** Most UTF-16 code units of a text the core takes (default DEFAULT_MAX_TEXT_CHARS, at most MAX_TEXT_CHARS_CEILING). */
  maxTextChars?: number;
}

/** A loaded wasm core with its weight table. */
export class WasmCore {
  private ex!: CoreExports;
  private buffer: ArrayBuffer | null = null;
  private text!: Uint16Array;
  private pieces!: Uint32Array;
  private views!: CoreViews;
  /** Why the last rebuild failed (null: the instance is sound). */
  private broken: unknown = null;
  private readonly setup: CoreSetup = { channels: null, weights: null, phrases: [] };
  private rebuilt = 0;
  private readonly module: WebAssembly.Module;
  readonly weightBits: number;
  /** Most UTF-16 code units of a text: a longer one gets TextTooLongError before the core is touched. */
  readonly maxTextChars: number;

  private constructor(module: WebAssembly.Module, weightBits: number, maxTextChars: number) {
    this.module = module;
    this.weightBits = weightBits;
    this.maxTextChars = maxTextChars;
  }

  /** Compile and instantiate the core and reserve its tables. */
  static async create(wasmBytes: ArrayBuffer | Uint8Array, weightBits: number, options: WasmCoreOptions = {}): Promise<WasmCore> {
    const max = options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;
    if (!Number.isInteger(max) || max < 1 || max > MAX_TEXT_CHARS_CEILING) {
      throw new RangeError(`wasm core: maxTextChars must be an integer from 1 to ${MAX_TEXT_CHARS_CEILING}, got ${max}`);
    }
    const core = new WasmCore(await WebAssembly.compile(wasmBytes), weightBits, max);
    core.instantiate();
    return core;
  }

  /** Rebuilds tried after a failure since this core was created (the tests read it). */
  get rebuilds(): number {
    return this.rebuilt;
  }

  /** A fresh instance of the compiled module, given the setup recorded so far (synchronous: ~20 ms). */
  private instantiate(): void {
    const instance = new WebAssembly.Instance(this.module, {
      env: {
        abort: () => {
          throw new Error('wasm core aborted');
        },
      },
    });
    this.ex = instance.exports as unknown as CoreExports;
    this.buffer = null;
    if (!this.ex.setupTables(this.weightBits, LEX_BITS)) throw new CoreUnavailableError('wasm core: cannot reserve tables');
    const { channels, weights, phrases } = this.setup;
    if (channels !== null) this.ex.setChannels(channels);
    if (weights) this.writeWeights(weights.codes, weights.lut);
    for (const p of phrases) this.ex.addPhrase(this.put(p.phrase), p.lang, p.bits);
  }

  /** Replaces a possibly broken instance; a failure is kept and retried before the next call. */
  private rebuild(): void {
    this.rebuilt++;
    try {
      this.instantiate();
      this.broken = null;
    } catch (error) {
      this.broken = error;
    }
  }

  /** Throws CoreUnavailableError while the core is broken and a rebuild fails again. */
  private ready(): void {
    if (this.broken === null) return;
    this.rebuild();
    if (this.broken !== null) throw new CoreUnavailableError('wasm core: broken, and it could not be rebuilt', { cause: this.broken });
  }

  /** Version of tokenization/feature hashing compiled into the core. */
  featureVersion(): number {
    return this.ex.featureVersion();
  }

  /** Select the scorer's feature channels. */
  setChannels(channels: number): void {
    this.setup.channels = channels;
    this.ex.setChannels(channels);
  }

  /** Write the weight table: 2^weightBits int8 codes and the 256 values they decode to (see weightLut in model.ts). */
  setWeights(codes: Uint8Array, lut: Float32Array): void {
    const n = 1 << this.weightBits;
    if (codes.length !== n) throw new Error(`weights: expected ${n} codes, got ${codes.length}`);
    if (lut.length !== 256) throw new Error(`weights: expected 256 decoded values, got ${lut.length}`);
    this.setup.weights = { codes, lut };
    this.writeWeights(codes, lut);
  }

  private writeWeights(codes: Uint8Array, lut: Float32Array): void {
    new Uint8Array(this.ex.memory.buffer, this.ex.weightsPtr() >>> 0, codes.length).set(codes);
    new Float32Array(this.ex.memory.buffer, this.ex.lutPtr() >>> 0, 256).set(lut);
  }

  private refresh(): void {
    // Growing linear memory detaches the old ArrayBuffer (byteLength 0): cheaper to test than
    // reading memory.buffer, which this runs twice per analysis.
    if (this.buffer !== null && this.buffer.byteLength !== 0) return;
    const ex = this.ex;
    const buf = ex.memory.buffer;
    const cap = ex.textCap() >>> 0;
    const tokCap = cap + 16;
    const sentCap = (cap >>> 1) + 16;
    // The exports are u32 but arrive as signed i32: an address past 2 GiB would be negative.
    const text = new Uint16Array(buf, ex.textPtr() >>> 0, cap);
    const pieces = new Uint32Array(buf, ex.viewPtr() >>> 0, sentCap * 2);
    const views = {
      sentences: new Uint32Array(buf, ex.sentPtr() >>> 0, sentCap * SENT_WORDS32),
      sentFeatures: new Float32Array(buf, ex.sentFeatPtr() >>> 0, sentCap * SENT_FEATURES),
      paragraphs: new Uint32Array(buf, ex.paraPtr() >>> 0, sentCap * PARA_WORDS32),
      doc: new Uint32Array(buf, ex.docPtr() >>> 0, DOC_COUNTERS),
      tokens: new Uint32Array(buf, ex.tokPtr() >>> 0, tokCap * TOKEN_WORDS32),
      feats: new Uint32Array(buf, ex.featPtr() >>> 0, tokCap * 4 + sentCap),
    };
    // Swapped in together, the buffer last: a view that cannot be made leaves no stale ones behind.
    this.text = text;
    this.pieces = pieces;
    this.views = views;
    this.buffer = buf;
  }

  /**
   * Room for a text of `n` code units (doubling, never past maxTextChars); false when memory could
   * not grow, which changes nothing in the core (assembly/layout.ts reserveText commits after the grow).
   */
  private reserve(n: number): boolean {
    const have = this.ex.textCap() >>> 0;
    if (n <= have) return true;
    let cap = Math.max(MIN_TEXT_CAP, have);
    while (cap < n) cap *= 2;
    return this.ex.reserveText(Math.max(n, Math.min(cap, this.maxTextChars))) !== 0;
  }

  /** Copy `s` into the core's text buffer (reserve() made room); returns its length. */
  private put(s: string): number {
    const n = s.length;
    if (!this.reserve(n)) throw new CoreUnavailableError('wasm core: out of memory');
    this.refresh();
    const t = this.text;
    for (let i = 0; i < n; i++) t[i] = s.charCodeAt(i);
    return n;
  }

  /**
   * Tokenize and score `s`; returns the number of sentences and the views of the result. The
   * document score reads `view` (presentation.ts), or `s` itself when it is null. Throws
   * TextTooLongError past maxTextChars (nothing touched), CoreUnavailableError when memory cannot
   * grow (the core unchanged) or the core is broken; after any other error the core is rebuilt.
   */
  analyze(s: string, lang: number, emit = false, view: ProseView | null = null): { sentences: number; views: CoreViews } {
    if (s.length > this.maxTextChars) throw new TextTooLongError(s.length, this.maxTextChars);
    this.ready();
    let grown: boolean;
    try {
      grown = this.reserve(s.length);
    } catch (error) {
      this.rebuild();
      throw error;
    }
    if (!grown) throw new CoreUnavailableError('wasm core: out of memory');
    try {
      const n = this.put(s);
      let pieces = WHOLE_TEXT;
      if (view) {
        // A piece lies inside one non-empty line: the core's room for them (half the text) suffices.
        this.pieces.set(view.ranges);
        pieces = view.ranges.length / 2;
      }
      const sentences = this.ex.analyze(n, lang, emit ? 1 : 0, pieces, view?.close ? 1 : 0);
      this.refresh();
      return { sentences, views: this.views };
    } catch (error) {
      this.rebuild();
      throw error;
    }
  }

  /** Add a lexicon phrase with category bits for a language slot (0 en, 1 es, 2 any). */
  addPhrase(phrase: string, lang: number, bits: number): boolean {
    this.ready();
    try {
      const added = this.ex.addPhrase(this.put(phrase), lang, bits) === 1;
      // Recorded once it went in: a rebuild replays it.
      this.setup.phrases.push({ phrase, lang, bits });
      return added;
    } catch (error) {
      this.rebuild();
      throw error;
    }
  }
}
