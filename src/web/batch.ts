/** The Files tab: posts files as files[], renders the NDJSON stream as it arrives, exports CSV. */
import { VERDICT_KEYS, type VerdictKey } from '../contract/index.ts';
import { detectFiles, readNdjson } from './api.ts';
import { calibrationLine, calibrationNote, type CalibrationUse } from './calibration.ts';
import { el } from './dom.ts';
import { tr, type UiLang } from './strings.ts';
import { paintVerdict, shareText } from './verdict.ts';

/** One file's line in the results table. */
export interface BatchRow {
  index: number;
  fileName: string;
  words?: number;
  score?: number;
  /** Words in AI passages over all words, 0 to 1, as the API sent it. */
  aiShare?: number;
  verdict?: string;
  verdictKey?: VerdictKey;
  flagged?: number;
  docType?: string;
  /** The file's reasons (`detail=full`): the bullets' texts, the first supporting the verdict. */
  reasons?: string[];
  /** The line's `calibration` when the batch named a profile: applied, or why not. */
  calibration?: CalibrationUse;
  /** The line's measured-error sentence (the profile's own when it applied). */
  measuredError?: string;
  error?: { code: string; message: string };
}

/** Column order of the CSV export (stable machine names, whatever the interface language). */
const CSV_COLUMNS = [
  'file',
  'words',
  'score',
  'ai_share',
  'verdict',
  'verdict_key',
  'flagged',
  'doc_type',
  'error_code',
  'error_message',
  // Appended (issue 34), so the columns before keep their places in existing spreadsheets.
  'calibration_applied',
  'calibration_reason',
  // Appended (issue 38): whether the profile adapted `score`, and then the model's own score.
  'calibration_adapted',
  'model_score',
] as const;
/** Cells of a row after the file name, spanned by a pending or error cell. */
const DATA_COLUMNS = 6;

/** One CSV field (RFC 4180 quoting); a leading = + - @ is defused so spreadsheets never run it as a formula. */
function csvField(value: string | number | undefined): string {
  let s = value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s) && typeof value === 'string') s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The rows as a CSV document with a header line. */
export function toCsv(rows: BatchRow[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) {
    const cal = r.calibration;
    const cells = [
      r.fileName,
      r.words,
      r.score,
      r.aiShare,
      r.verdict,
      r.verdictKey,
      r.flagged,
      r.docType,
      r.error?.code,
      r.error?.message,
      cal ? String(cal.applied) : undefined,
      cal?.reason ?? undefined,
      cal ? String(cal.adapted) : undefined,
      cal?.adapted ? cal.modelScore : undefined,
    ];
    lines.push(cells.map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** What the Files tab needs from the page around it. */
export interface BatchContext {
  key: () => string;
  lang: () => UiLang;
  sensitivity: () => string;
  /** The chosen calibration profile's id ('' for none). */
  calibration: () => string;
}

function cell(text: string | number | undefined, cls?: string, label?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text === undefined ? '' : String(text);
  if (cls) td.className = cls;
  // The column's name, shown before the value where the table is laid out as one card per file (narrow screens).
  if (label) td.dataset.label = label;
  return td;
}

/**
 * The score cell: `score` (the adapted score when the profile adapted it, the one the verdict beside it
 * was decided on) and then, in small, the model's own score (issue 38).
 */
function scoreCell(row: BatchRow, lang: UiLang): HTMLTableCellElement {
  const td = cell(undefined, 'num score', tr(lang, 'colScore'));
  // One box for both numbers, so the narrow layout (the column's name, then the value) keeps them together.
  const value = el('span', 'score-value');
  value.appendChild(el('span', 'score-number', String(row.score)));
  const model = row.calibration?.adapted ? row.calibration.modelScore : undefined;
  if (model !== undefined) {
    value.appendChild(el('small', 'model-score', tr(lang, 'modelScoreShort', { score: model })));
    td.dataset.modelScore = String(model);
  }
  td.appendChild(value);
  return td;
}

/** Fills a table row from a BatchRow (pending, result or inline error). */
function paintRow(tr_: HTMLTableRowElement, row: BatchRow, lang: UiLang): void {
  const name = document.createElement('th');
  name.scope = 'row';
  // Only the name may break anywhere (a long name without spaces); the reasons under it break between words.
  name.appendChild(el('span', 'file-name', row.fileName));
  const calibration = row.calibration ? calibrationLine(row.calibration, row.docType ?? '', lang) : null;
  if (row.calibration) {
    // The profile's word on this file stays visible in short (the full sentence is under Why).
    const note = el('p', 'cal-note', calibrationNote(row.calibration, lang));
    note.dataset.applied = String(row.calibration.applied);
    note.dataset.adapted = String(row.calibration.adapted);
    name.appendChild(note);
  }
  if ((row.reasons && row.reasons.length > 0) || calibration) {
    // A disclosure per file: its reasons open in place, the table stays one line per file.
    const details = el('details', 'reasons');
    const summary = el('summary');
    summary.textContent = tr(lang, 'fileReasons');
    const list = el('ul');
    list.append(
      ...(row.reasons ?? []).map((text) => {
        const li = el('li');
        li.textContent = text;
        return li;
      }),
    );
    details.append(summary, list);
    // With a profile: whether it decided, why not, and the measured error (the profile's own where it applied).
    if (calibration) details.appendChild(el('p', 'hint calibration-line', calibration));
    if (calibration && row.measuredError) details.appendChild(el('p', 'hint measured-error', row.measuredError));
    name.appendChild(details);
  }
  tr_.replaceChildren(name);
  tr_.className = row.error ? 'row-error' : row.score === undefined ? 'row-pending' : 'row-done';
  if (row.error) {
    const td = cell(tr(lang, 'fileError', { message: row.error.message }), 'file-error');
    td.colSpan = DATA_COLUMNS;
    td.dataset.code = row.error.code;
    tr_.appendChild(td);
    return;
  }
  if (row.score === undefined) {
    const td = cell('…');
    td.colSpan = DATA_COLUMNS;
    tr_.appendChild(td);
    return;
  }
  // The same rule as the text view: a share only beside an AI-side verdict (the CSV keeps the API's number).
  const share = cell(shareText(row.verdictKey, row.aiShare, lang), 'num', tr(lang, 'colAiShare'));
  if (row.aiShare !== undefined) share.dataset.share = String(row.aiShare);
  const verdict = cell(undefined, undefined, tr(lang, 'colVerdict'));
  const badge = el('span');
  paintVerdict(badge, row.verdictKey, row.verdict ?? '');
  verdict.appendChild(badge);
  tr_.append(
    cell(row.words, 'num', tr(lang, 'colWords')),
    scoreCell(row, lang),
    share,
    verdict,
    cell(row.flagged, 'num', tr(lang, 'colFlagged')),
    cell(row.docType, undefined, tr(lang, 'colDocType')),
  );
}

/** The batch on screen: its rows, their table rows, the status line's key and the language its lines were asked in. */
interface ShownBatch {
  rows: Map<number, BatchRow>;
  trs: Map<number, HTMLTableRowElement>;
  status: 'progressDone' | 'progressIncomplete' | null;
  lang: UiLang;
}
let shown: ShownBatch | null = null;

/**
 * Re-labels the batch on screen in `lang` (issue 32: "Done" and "Why" stayed English after a
 * switch): the page's own words follow at once; the server's (verdicts, document types, reasons,
 * messages) are in the language the batch was asked in, and a note says so until it runs again.
 */
export function relabelBatch(lang: UiLang): void {
  const note = document.getElementById('batch-stale') as HTMLElement | null;
  if (!shown) return;
  for (const [index, row] of shown.rows) {
    const tr_ = shown.trs.get(index);
    if (tr_) paintRow(tr_, row, lang);
  }
  if (shown.status) (document.getElementById('batch-status') as HTMLElement).textContent = tr(lang, shown.status);
  if (!note) return;
  note.hidden = shown.lang === lang;
  note.textContent = shown.lang === lang ? '' : tr(lang, 'filesStaleLangNote', { language: tr(lang, `langName_${shown.lang}`) });
}

/** The line's verdict key when it is one the page knows (an older or newer server may differ). */
function verdictKeyOf(value: unknown): VerdictKey | undefined {
  return (VERDICT_KEYS as readonly unknown[]).includes(value) ? (value as VerdictKey) : undefined;
}

/** The line's `calibration` when it has the shape the page reads (with both scores when the profile adapted `score`). */
function calibrationOf(value: unknown): CalibrationUse | undefined {
  const v = value as Partial<CalibrationUse> | null | undefined;
  if (!v || typeof v.name !== 'string' || typeof v.applied !== 'boolean') return undefined;
  const use: CalibrationUse = { id: v.id ?? null, name: v.name, applied: v.applied, reason: v.reason ?? null, adapted: v.adapted === true };
  if (use.adapted && typeof v.modelScore === 'number' && typeof v.adaptedScore === 'number') {
    use.adaptedScore = v.adaptedScore;
    use.modelScore = v.modelScore;
  }
  return use;
}

/** Runs one batch of `files`, updating the progress bar and table as each NDJSON line arrives. */
export async function runBatch(files: File[], ctx: BatchContext): Promise<BatchRow[]> {
  const lang = ctx.lang();
  const section = document.getElementById('batch') as HTMLElement;
  const progress = document.getElementById('batch-progress') as HTMLProgressElement;
  const count = document.getElementById('batch-count') as HTMLElement;
  const status = document.getElementById('batch-status') as HTMLElement;
  const tbody = document.getElementById('batch-rows') as HTMLTableSectionElement;
  const rows = new Map<number, BatchRow>();
  const trs = new Map<number, HTMLTableRowElement>();
  shown = { rows, trs, status: null, lang };
  relabelBatch(lang);
  let total = files.length;
  let done = 0;
  const setProgress = () => {
    progress.max = Math.max(total, 1);
    progress.value = done;
    count.textContent = `${done}/${total}`;
  };
  const upsert = (row: BatchRow) => {
    rows.set(row.index, row);
    let tr_ = trs.get(row.index);
    if (!tr_) {
      tr_ = document.createElement('tr');
      tr_.dataset.index = String(row.index);
      trs.set(row.index, tr_);
      tbody.appendChild(tr_);
    }
    paintRow(tr_, row, ctx.lang());
  };
  tbody.replaceChildren();
  status.textContent = '';
  section.hidden = false;
  setProgress();

  const res = await detectFiles(ctx.key(), lang, files, ctx.sensitivity(), ctx.calibration());
  let complete = false;
  for await (const msg of readNdjson(res.body!)) {
    const index = Number(msg.index);
    const fileName = String(msg.fileName ?? files[index]?.name ?? '');
    if (typeof msg.total === 'number') total = msg.total;
    if (msg.type === 'progress') {
      upsert({ index, fileName });
      status.textContent = tr(ctx.lang(), 'progressNow', { name: fileName });
    } else if (msg.type === 'result') {
      done++;
      upsert({
        index,
        fileName,
        words: Number(msg.words),
        score: Number(msg.score),
        aiShare: typeof msg.aiShare === 'number' ? msg.aiShare : undefined,
        verdict: String(msg.verdict ?? ''),
        verdictKey: verdictKeyOf(msg.verdictKey),
        flagged: Number(msg.flagged),
        docType: String(msg.docType ?? ''),
        reasons: Array.isArray(msg.bullets) ? msg.bullets.map((b: { text?: unknown }) => String(b?.text ?? '')) : undefined,
        calibration: calibrationOf(msg.calibration),
        measuredError:
          typeof (msg.measuredError as { text?: unknown })?.text === 'string' ? (msg.measuredError as { text: string }).text : undefined,
      });
    } else if (msg.type === 'error') {
      done++;
      upsert({ index, fileName, error: { code: String(msg.code), message: String(msg.message ?? msg.code) } });
    } else if (msg.type === 'complete') {
      complete = true;
      shown.status = 'progressDone';
      status.textContent = tr(ctx.lang(), 'progressDone');
    }
    setProgress();
  }
  // A stream cut short (time budget, server restart) ends without its `complete` line.
  if (!complete) {
    shown.status = 'progressIncomplete';
    status.textContent = tr(ctx.lang(), 'progressIncomplete');
  }
  return [...rows.values()].sort((a, b) => a.index - b.index);
}

/** Offers `csv` to the browser as a downloaded file. */
export function downloadCsv(csv: string, fileName = 'detector-results.csv'): void {
  // A BOM lets spreadsheet programs read accented file names and Spanish labels as UTF-8.
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
