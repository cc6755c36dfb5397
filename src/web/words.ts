/** The word counter and the 20-word minimum: the API's own (src/contract), so the two can never drift apart. */
export { countWords, MIN_WORDS } from '../contract/words.ts';
