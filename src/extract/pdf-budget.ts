/**
 * The resource budget of one PDF, enforced INSIDE pdf.js. pdf.js (6.5.438) inflates every stream
 * to its full size and parses content streams without limits; patches/pdfjs-dist@6.5.438.patch
 * adds three calls to `globalThis.__pdfjsBudget`:
 * - `onInflate(streamBytes, grownBy)` before any decoder's buffer grows (Flate, LZW, RunLength,
 *   ASCII85/Hex, predictors, a page's concatenated contents) and for each chunk the native
 *   DecompressionStream path yields;
 * - `onToken()` for each object the content-stream preprocessor reads (operators and operands;
 *   pages, forms and Type3 glyph procedures alike), counted per page and for the whole file;
 * - `onForm()` each time a form XObject is drawn (text and operator-list paths).
 * A hook that throws stops the parse; pdf.js may swallow that error (ignoreErrors), so the first
 * limit hit is kept and every later hook call throws it again until extractPdf reports it.
 */
import { type ExtractError, limitError } from './errors.ts';
import type { HeapGuard } from './heap-guard.ts';
import type { ExtractLimits } from './limits.ts';

/** The hooks the patched pdf.js calls. */
export interface PdfjsBudgetHooks {
  onInflate(streamBytes: number, grownBy: number): void;
  onToken(): void;
  onForm(): void;
}

type BudgetGlobal = { __pdfjsBudget?: PdfjsBudgetHooks };

/** Check the heap once per this many tokens (~30-60 ms of parsing) ... */
const TOKENS_PER_HEAP_CHECK = 65_536;
/** ... and before any buffer growth of at least this many bytes. */
const HEAP_CHECK_MIN_GROWTH = 1024 * 1024;

/** One PDF's counters and limits; see the module comment. */
export class PdfBudget implements PdfjsBudgetHooks {
  private inflated = 0;
  private tokens = 0;
  private fileTokens = 0;
  private forms = 0;
  private page = 0;
  private exceeded: ExtractError | null = null;

  constructor(
    private readonly limits: ExtractLimits,
    private readonly heap?: HeapGuard,
  ) {}

  onInflate(streamBytes: number, grownBy: number): void {
    this.rethrow();
    if (streamBytes > this.limits.maxPdfStreamBytes) {
      this.fail(
        limitError('pdf_stream_bytes', this.limits.maxPdfStreamBytes, `a PDF stream inflates past ${this.limits.maxPdfStreamBytes} bytes`),
      );
    }
    this.inflated += grownBy;
    if (this.inflated > this.limits.maxPdfInflatedBytes) {
      this.fail(
        limitError(
          'pdf_inflated_bytes',
          this.limits.maxPdfInflatedBytes,
          `the PDF's streams inflate past ${this.limits.maxPdfInflatedBytes} bytes in total`,
        ),
      );
    }
    if (grownBy >= HEAP_CHECK_MIN_GROWTH) this.checkHeap();
  }

  onToken(): void {
    this.rethrow();
    if (++this.tokens > this.limits.maxPdfPageOperators) {
      this.fail(
        limitError(
          'pdf_page_operators',
          this.limits.maxPdfPageOperators,
          `page ${this.page} has more than ${this.limits.maxPdfPageOperators} content-stream operators and operands`,
          { page: this.page },
        ),
      );
    }
    if (++this.fileTokens > this.limits.maxPdfOperators) {
      this.fail(
        limitError(
          'pdf_operators',
          this.limits.maxPdfOperators,
          `the PDF has more than ${this.limits.maxPdfOperators} content-stream operators and operands in all (at page ${this.page})`,
          { page: this.page },
        ),
      );
    }
    if (this.tokens % TOKENS_PER_HEAP_CHECK === 0) this.checkHeap();
  }

  onForm(): void {
    this.rethrow();
    if (++this.forms > this.limits.maxPdfPageForms) {
      this.fail(
        limitError(
          'pdf_page_forms',
          this.limits.maxPdfPageForms,
          `page ${this.page} draws more than ${this.limits.maxPdfPageForms} forms`,
          {
            page: this.page,
          },
        ),
      );
    }
  }

  /** Starts counting a page's tokens and forms (1-based page number, for the message); the file's total goes on. */
  startPage(page: number): void {
    this.page = page;
    this.tokens = 0;
    this.forms = 0;
  }

  /** Throws the limit that was hit, if any: call it after every pdf.js call, which may have swallowed it. */
  rethrow(): void {
    if (this.exceeded) throw this.exceeded;
  }

  /** Records a limit hit outside pdf.js (e.g. text per page) so the parse stops at its next token; throws it. */
  stop(error: ExtractError): never {
    return this.fail(error);
  }

  /** Heap check at a point pdf.js does not reach (between pages, text chunks). */
  checkHeap(): void {
    if (!this.heap) return;
    try {
      this.heap.check();
    } catch (error) {
      this.fail(error as ExtractError);
    }
  }

  private fail(error: ExtractError): never {
    this.exceeded ??= error;
    throw this.exceeded;
  }
}

// pdf.js keeps per-thread state and the hooks are one global: PDFs in one thread run one at a time.
let running: Promise<unknown> = Promise.resolve();

/** Runs `work` with `budget` installed as pdf.js's hooks; concurrent calls in one thread queue. */
export function withPdfBudget<T>(budget: PdfBudget, work: () => Promise<T>): Promise<T> {
  const turn = running.then(async () => {
    const global = globalThis as BudgetGlobal;
    global.__pdfjsBudget = budget;
    try {
      return await work();
    } finally {
      if (global.__pdfjsBudget === budget) delete global.__pdfjsBudget;
    }
  });
  running = turn.catch(() => undefined);
  return turn;
}
