/**
 * The parts of a profile's contract the guard on reference writers adds (issue 43, profile format 3),
 * in TypeBox: how a language's bars were guarded (`languages.<lang>.guard`), the check of its AI
 * examples (`languages.<lang>.examples`), and why an adapted mode decides without the adaptation
 * (`adaptation.modes.<mode>.fallback`). What each mode's bar flags of other writers is
 * ../detect/other-writers.ts (the same object in answers). The types are the detector's own
 * (decide/other-writers.ts GuardNote, decide/examples.ts ExamplesCheck): checked below.
 */
import { t, type Static } from 'elysia';
import { FALLBACK_REASONS } from '../../detector/decide/adaptation';
import { type ExamplesCheck, FORMS } from '../../detector/decide/examples';
import type { GuardNote } from '../../detector/decide/guard';
import { Int, StringEnum } from '../../http/schema';
import type { Same } from '../detect/other-writers';

/** `languages.<lang>.guard`. */
export const GuardNoteSchema = t.Object(
  {
    references: Int({
      minimum: 0,
      description: 'Reference human texts of the language (shipped with the model) of the document types and lengths the profile covers.',
    }),
    populations: Int({
      minimum: 0,
      description: 'Reference populations with enough of those texts to be guarded: each mode’s bar protects each of them.',
    }),
    made: StringEnum(['with_profile', 'on_load'] as const, {
      description:
        '`with_profile`: guarded as the profile was made; `on_load`: an older profile (made without the guard) guarded as it was read.',
    }),
  },
  {
    description:
      'How the bars were guarded on reference writers: each mode’s bar raised until no reference population is flagged more than the model alone flags it plus a margin, or the mode’s floor (docs/calibration.md, "Writers outside your texts"). Absent: no reference set (the bars are not guarded).',
  },
);

/** `languages.<lang>.examples`. */
export const ExamplesCheckSchema = t.Object(
  {
    aiTexts: Int({ minimum: 0, description: 'AI examples checked.' }),
    modelAuroc: t.Number({
      minimum: 0,
      maximum: 1,
      description:
        'The model’s AUROC of the examples against the human texts: under 0.5, it reads the “AI examples” as more human than the human texts (warning `examples_rank_below_human`).',
    }),
    forms: t.Array(
      t.Object({
        form: StringEnum(FORMS),
        human: t.Number({ minimum: 0, maximum: 1, description: 'Share of the human texts in this form.' }),
        ai: t.Number({ minimum: 0, maximum: 1, description: 'Share of the AI examples in this form.' }),
        word: t.Optional(t.String({ description: '`opening`: the opening word most texts of one side share.' })),
      }),
      {
        description:
          'Surface forms in which the two sides differ by half the texts or more, widest first (warning `examples_differ_in_form`).',
      },
    ),
  },
  { description: 'The check of the AI examples against the human texts; absent with fewer than 20 examples.' },
);

/** `adaptation.modes.<mode>.fallback`. */
export const FallbackSchema = StringEnum(FALLBACK_REASONS, {
  description:
    '`fewer_caught`: the adapted bar caught fewer of your AI examples (cross-validated) than the calibration-only one, so this mode decides without the adaptation, on the bar of `modes` (`thresholdLogit` here is then null). Absent: the mode decides adapted.',
});

// The schemas are the detector's types: a field added to one and not the other stops compiling.
export const GUARD_NOTE_IS_THE_DETECTORS: Same<Static<typeof GuardNoteSchema>, GuardNote> = true;
export const EXAMPLES_CHECK_IS_THE_DETECTORS: Same<Static<typeof ExamplesCheckSchema>, ExamplesCheck> = true;
