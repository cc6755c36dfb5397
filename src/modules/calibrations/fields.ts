/**
 * The fields a calibration request may carry (issue 45 item 3): a misspelt one (`aitexts`, `ai_texts`,
 * `AIFiles[]`, `aiFile[]`, `ai_files[]`) used to be ignored, so 100 AI examples vanished without a
 * word and the profile came out calibration-only. Any other top-level JSON field or form part is a
 * 400 invalid_request naming it and the field it most likely meant.
 */
import { ApiError } from '../../http/errors';

/** Top-level fields of a JSON calibration body. */
export const JSON_FIELDS = ['name', 'texts', 'aiTexts'] as const;
/** Parts of a multipart calibration body (`files` and `aiFiles` are accepted without the brackets too). */
export const FORM_FIELDS = ['name', 'files[]', 'files', 'aiFiles[]', 'aiFiles'] as const;

/** The body kinds, each with the field a misspelling most likely meant: [name, human texts, AI examples]. */
const MEANT = {
  json: { name: 'name', human: 'texts', ai: 'aiTexts', all: '"name", "texts" and "aiTexts"' },
  form: { name: 'name', human: 'files[]', ai: 'aiFiles[]', all: '"name", "files[]" and "aiFiles[]"' },
} as const;

/**
 * The field `field` most likely meant, or null: letters only, lower-cased, an `ai` in front means the
 * AI examples (`AIFiles[]`, `ai_texts`, `aiFile`), `text`/`file`/`doc` the human texts, `name`/`title` the name.
 */
export function meantField(field: string, kind: keyof typeof MEANT): string | null {
  const letters = field.toLowerCase().replace(/[^a-z]/g, '');
  const meant = MEANT[kind];
  const about = /texts?|files?|docs?|documents?|examples?|samples?/.test(letters);
  if (letters.startsWith('ai') || letters.startsWith('generated') || letters.startsWith('machine')) return meant.ai;
  if (about || letters === 'human' || letters.startsWith('human')) return meant.human;
  if (letters === 'title' || letters.endsWith('name') || letters === 'label') return meant.name;
  return null;
}

/** 400 invalid_request for the first of `fields` that is not one of `known`, naming it and what it most likely meant. */
export function checkFields(fields: Iterable<string>, kind: keyof typeof MEANT): void {
  const known: ReadonlySet<string> = new Set(kind === 'json' ? JSON_FIELDS : FORM_FIELDS);
  for (const field of fields) {
    if (known.has(field)) continue;
    const shown = field.slice(0, 64);
    const suggestion = meantField(field, kind);
    const all = MEANT[kind].all;
    const where = kind === 'json' ? 'field' : 'form part';
    if (suggestion === null) {
      throw new ApiError('invalid_request', {
        variant: `unknown_${kind}_field`,
        field: shown,
        detail: `unknown ${where} "${shown}": a calibration takes ${all}`,
      });
    }
    throw new ApiError('invalid_request', {
      variant: `misspelt_${kind}_field`,
      field: shown,
      suggestion,
      detail: `unknown ${where} "${shown}": did you mean "${suggestion}"? A calibration takes ${all}`,
    });
  }
}
