/**
 * Generated calibration sets (no data set), for the tests, the playground's browser tests and the API's
 * examples: casual first-person notes that vary their people, places, numbers and events, so no two are
 * the same text, each 40-79 words (one length bucket), in English or Spanish (humanNote); and the same
 * diary register in a chat model's polished voice (aiNote), the AI examples of an adapted profile.
 */

const NAMES = ['Dave', 'Maria', 'Tom', 'Priya', 'Jonas', 'Keiko', 'Sam', 'Lucy', 'Omar', 'Beth', 'Raúl', 'Nina'];
const PLACES = [
  'the allotment',
  'Gran’s flat',
  'the bus depot',
  'the corner shop',
  'the old quarry',
  'the swimming baths',
  'the car boot sale',
];
const THINGS = ['the kettle', 'my left boot', 'the shed door', 'a bag of onions', 'the blue bike', 'the radio', 'the spare key'];
const OPENERS = [
  'Honestly no idea why I bother writing this down, but',
  'Quick note before I forget:',
  'Right, so',
  'Weird day.',
  'Not much to report except that',
  'Dear diary, or whatever,',
];
const EVENTS = [
  '{name} turned up at {place} at {n} past {h} with {thing} and no explanation whatsoever.',
  'we spent about {n} minutes looking for {thing} near {place} before {name} found it in the car.',
  '{name} swore the bus was {n} minutes late again, so we walked to {place} in the drizzle.',
  'I paid {n} quid for {thing} at {place}, which {name} says was daylight robbery.',
  '{name} and I argued for {n} minutes about whether {place} shuts at {h} or half past.',
];
const ENDINGS = [
  'Anyway. Tea, then bed.',
  'Must remember to ring {name} tomorrow about it.',
  'Still laughing about it now, to be fair.',
  'Not doing that again in a hurry.',
  'My feet are killing me.',
  'The dog was unimpressed by the whole business.',
];
const EXTRAS = [
  'It rained the whole way back and my umbrella gave up near the chip shop.',
  'The cat had been sick on the landing, which was a lovely welcome home.',
  'Someone had parked across our drive again, third time this week.',
  'Mum phoned halfway through to ask if I had eaten anything green lately.',
  'We got chips on the way home and ate them in the car with the heater on.',
];

/** A seeded pick (the texts are the same on every run). */
function pick<T>(list: readonly T[], i: number, salt: number): T {
  return list[(i * 7 + salt * 13 + Math.floor(i / list.length)) % list.length];
}

function fill(template: string, i: number): string {
  return template
    .replace('{name}', pick(NAMES, i, 1))
    .replace('{name}', pick(NAMES, i, 5))
    .replace('{place}', pick(PLACES, i, 2))
    .replace('{thing}', pick(THINGS, i, 3))
    .replace('{n}', String(5 + ((i * 17) % 53)))
    .replace('{h}', String(1 + ((i * 5) % 11)));
}

/** The `i`th English note (40-79 words). */
export function humanNote(i: number): string {
  const parts = [
    pick(OPENERS, i, 0),
    fill(pick(EVENTS, i, 4), i),
    fill(pick(EXTRAS, i, 6), i),
    fill(pick(EXTRAS, i + 2, 7), i),
    fill(pick(ENDINGS, i, 8), i),
  ];
  return parts.join(' ');
}

/** `count` distinct English notes. */
export function humanNotes(count: number): string[] {
  return Array.from({ length: count }, (_, i) => humanNote(i));
}

const AI_PLACES = [
  'the farmers market',
  'the community garden',
  'the local library',
  'the old train station',
  'the riverside park',
  'the pottery studio',
  'the bakery on the corner',
];
const AI_NAMES = ['Emma', 'Liam', 'Sofia', 'Noah', 'Ava', 'Mateo', 'Chloe', 'Ethan', 'Zara', 'Lucas'];
const AI_OPENERS = [
  'Today I spent the afternoon at',
  'This morning I finally visited',
  'Yesterday evening I took a walk to',
  'Over the weekend I stopped by',
  'After work I decided to explore',
];
const AI_MIDDLES = [
  '{name} joined me, and we talked about everything from books to our plans for the summer.',
  'The atmosphere was calm and welcoming, with {n} people enjoying the sunshine.',
  'I noticed how the small details, like the scent of fresh bread, made the place feel special.',
  '{name} pointed out a mural I had never seen before, which sparked a lovely conversation.',
  'We lost track of time for about {n} minutes, simply enjoying the moment together.',
];
const AI_CLOSINGS = [
  'Overall, it was a simple yet meaningful experience that reminded me to slow down.',
  'Looking back, I am grateful for these quiet moments and the people who share them.',
  'It was a gentle reminder that joy often hides in the most ordinary places.',
  'All in all, the day left me feeling refreshed, inspired and ready for the week ahead.',
];

/**
 * The `i`th "AI example" note: the same first-person diary register as humanNote, in the polished,
 * upbeat voice a chat model gives it (what an operator would get asking its writers' models for
 * diary entries). The model alone scores most of them under its bars; a profile adapted to them does not.
 */
export function aiNote(i: number): string {
  const fillAi = (t: string) => t.replace('{name}', pick(AI_NAMES, i, 1)).replace('{n}', String(10 + ((i * 17) % 40)));
  return [
    `${pick(AI_OPENERS, i, 0)} ${pick(AI_PLACES, i, 2)}.`,
    fillAi(pick(AI_MIDDLES, i, 3)),
    fillAi(pick(AI_MIDDLES, i + 2, 4)),
    pick(AI_CLOSINGS, i, 5),
  ].join(' ');
}

/** `count` distinct AI-example notes. */
export function aiNotes(count: number): string[] {
  return Array.from({ length: count }, (_, i) => aiNote(i));
}
