/**
 * The figures a profile's mode states about writers outside its texts (issue 43 items 3 and 5), in
 * TypeBox: the same object in a profile (`languages.<lang>.modes.<mode>.otherWriters`, GET/POST
 * /v1/calibrations) and in an answer decided with the profile (`measuredError.otherWriters`, single
 * mode and batch lines), so a client reads one shape. The type is the guard's own
 * (src/detector/decide/guard.ts `OtherWriters`): the schema is checked against it below.
 */
import { t, type Static } from 'elysia';
import type { OtherWriters } from '../../detector/decide/guard';
import { Int, StringEnum } from '../../http/schema';

const share = (description: string) => t.Number({ minimum: 0, maximum: 1, description });

const PopulationFlagsSchema = t.Object(
  {
    id: t.String({ description: 'The population’s stable id, `<language>:<source family>`.' }),
    label: t.String({
      description:
        'What a person reads ("second-language learner essays"): the reference set’s name for it, in English in every label language.',
    }),
    texts: Int({ minimum: 0, description: 'Its reference texts of the kinds the profile covers.' }),
    flagged: Int({ minimum: 0, description: 'Those the bar flags, as a detection with the profile decides.' }),
    rate: share('flagged / texts.'),
    modelRate: share('The share the model alone (no profile) flags at this mode.'),
  },
  { title: 'OtherWritersPopulation', description: 'One reference population at this mode.' },
);

/** What a mode of a profile flags of reference human writers outside the profile's texts. */
export const OtherWritersSchema = t.Object(
  {
    bar: StringEnum(['adapted', 'calibration'] as const, {
      description: 'The bar the figures are of: the adapted one (an adapted language), or the calibration-only one.',
    }),
    texts: Int({
      minimum: 0,
      description:
        'Reference human texts (shipped with the model, never the profile’s) of the document types and lengths the profile covers, in the populations with enough of them.',
    }),
    flagged: Int({ minimum: 0, description: 'Those the bar flags, as a detection with the profile decides.' }),
    rate: share('flagged / texts.'),
    populations: Int({ minimum: 0, description: 'Reference populations with enough covered texts to be guarded.' }),
    most: t.Union([PopulationFlagsSchema, t.Null()], {
      description: 'The population the bar flags most (by rate), beside what the model alone flags of it; null when none is guarded.',
    }),
    raised: t.Boolean({
      description:
        'True when the guard raised the bar: the profile’s own texts would have set a lower one, which flagged a reference population more than the model alone plus a margin.',
    }),
  },
  {
    title: 'OtherWriters',
    description:
      'What this bar flags of human writers unlike the profile’s (reference texts of the kinds it covers), per population: the profile’s promise holds for texts like its own; this is what it does to others.',
  },
);

/** The figures as the API sends them. */
export type OtherWritersView = Static<typeof OtherWritersSchema>;

/** True exactly when A and B are the same type (a schema checked against the detector's type). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// The schema is the guard's type: a field added to one and not the other stops compiling.
export const OTHER_WRITERS_IS_THE_GUARDS: Same<OtherWritersView, OtherWriters> = true;
