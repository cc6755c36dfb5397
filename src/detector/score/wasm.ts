/**
 * The only code that touches the wasm core's exports. Text goes in through a wasm-owned UTF-16
 * buffer (no asc string bindings: they are slow and leak); results come back through typed-array
 * views that are recreated whenever linear memory grows.
 */
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

/** A loaded wasm core with its weight table. */
export class WasmCore {
  private readonly ex: CoreExports;
  private buffer: ArrayBuffer | null = null;
  private text!: Uint16Array;
  private pieces!: Uint32Array;
  private views!: CoreViews;
  readonly weightBits: number;

  private constructor(ex: CoreExports, weightBits: number) {
    this.ex = ex;
    this.weightBits = weightBits;
  }

  /** Instantiate the core and reserve its tables. */
  static async create(wasmBytes: ArrayBuffer | Uint8Array, weightBits: number): Promise<WasmCore> {
    const { instance } = await WebAssembly.instantiate(wasmBytes, {
      env: {
        abort: () => {
          throw new Error('wasm core aborted');
        },
      },
    });
    const core = new WasmCore(instance.exports as unknown as CoreExports, weightBits);
    if (!core.ex.setupTables(weightBits, LEX_BITS)) throw new Error('wasm core: cannot reserve tables');
    return core;
  }

  /** Version of tokenization/feature hashing compiled into the core. */
  featureVersion(): number {
    return this.ex.featureVersion();
  }

  /** Select the scorer's feature channels. */
  setChannels(channels: number): void {
    this.ex.setChannels(channels);
  }

  /** Write the weight table: 2^weightBits int8 codes and the 256 values they decode to (see weightLut in model.ts). */
  setWeights(codes: Uint8Array, lut: Float32Array): void {
    const n = 1 << this.weightBits;
    if (codes.length !== n) throw new Error(`weights: expected ${n} codes, got ${codes.length}`);
    if (lut.length !== 256) throw new Error(`weights: expected 256 decoded values, got ${lut.length}`);
    new Uint8Array(this.ex.memory.buffer, this.ex.weightsPtr(), n).set(codes);
    new Float32Array(this.ex.memory.buffer, this.ex.lutPtr(), 256).set(lut);
  }

  private refresh(): void {
    // Growing linear memory detaches the old ArrayBuffer (byteLength 0): cheaper to test than
    // reading memory.buffer, which this runs twice per analysis.
    if (this.buffer !== null && this.buffer.byteLength !== 0) return;
    const ex = this.ex;
    const buf = ex.memory.buffer;
    const cap = ex.textCap();
    const tokCap = cap + 16;
    const sentCap = (cap >>> 1) + 16;
    this.buffer = buf;
    this.text = new Uint16Array(buf, ex.textPtr(), cap);
    this.pieces = new Uint32Array(buf, ex.viewPtr(), sentCap * 2);
    this.views = {
      sentences: new Uint32Array(buf, ex.sentPtr(), sentCap * SENT_WORDS32),
      sentFeatures: new Float32Array(buf, ex.sentFeatPtr(), sentCap * SENT_FEATURES),
      paragraphs: new Uint32Array(buf, ex.paraPtr(), sentCap * PARA_WORDS32),
      doc: new Uint32Array(buf, ex.docPtr(), DOC_COUNTERS),
      tokens: new Uint32Array(buf, ex.tokPtr(), tokCap * TOKEN_WORDS32),
      feats: new Uint32Array(buf, ex.featPtr(), tokCap * 4 + sentCap),
    };
  }

  /** Copy `s` into the core's text buffer (growing it when needed); returns its length. */
  private put(s: string): number {
    const n = s.length;
    if (n > this.ex.textCap()) {
      let cap = Math.max(4096, this.ex.textCap());
      while (cap < n) cap *= 2;
      if (!this.ex.reserveText(cap)) throw new Error('wasm core: out of memory');
    }
    this.refresh();
    const t = this.text;
    for (let i = 0; i < n; i++) t[i] = s.charCodeAt(i);
    return n;
  }

  /**
   * Tokenize and score `s`; returns the number of sentences and the views of the result. The
   * document score reads `view` (presentation.ts), or `s` itself when it is null.
   */
  analyze(s: string, lang: number, emit = false, view: ProseView | null = null): { sentences: number; views: CoreViews } {
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
  }

  /** Add a lexicon phrase with category bits for a language slot (0 en, 1 es, 2 any). */
  addPhrase(phrase: string, lang: number, bits: number): boolean {
    const n = this.put(phrase);
    return this.ex.addPhrase(n, lang, bits) === 1;
  }
}
