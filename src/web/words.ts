/** The word counter's definition: the server's own (imported, so the two can never drift apart). */
export { countWords } from '../engine/words.ts';

/** The fewest words the API accepts for one text (the service's MIN_WORDS; a test keeps them equal). */
export const MIN_WORDS = 20;
