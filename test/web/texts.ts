/** Texts and small readers shared by the playground's browser tests. */
import { aiSharePercent } from '../../src/contract/share.ts';

/** Machine-flavoured prose, long enough for several sentences to be judged. */
export const ESSAY =
  'In today’s fast-paced world, it is important to note that technology plays a crucial role in our daily lives. ' +
  'Moreover, it offers numerous benefits that enhance productivity and foster innovation across many industries. ' +
  'Furthermore, by leveraging these tools, organizations can streamline their operations and unlock new opportunities. ' +
  'My neighbour’s dog barked at the bin lorry again this morning, which was funny. ' +
  'Ultimately, embracing this transformation is essential for long-term success in a competitive landscape.';

/** A second file in Markdown, so the batch crosses two extractors. */
export const NOTES_MD =
  '# Field notes\n\nWe walked up the ridge before breakfast and the fog sat in the valley like milk. ' +
  'Nobody had packed enough water, so we shared the last bottle and argued about the map. ' +
  'In conclusion, it is worth noting that careful planning plays a vital role in every successful hike.\n';

/** A casual human paragraph: on its own, one human passage. */
export const HUMAN_PARAGRAPH =
  "So last Saturday me and my brother drove up to the lake because he'd finally fixed the old boat. " +
  "It took us forever to get the motor going, honestly I thought we'd be stuck on the dock all day. " +
  'Dad showed up around noon with sandwiches and a cooler of root beer, and we ended up fishing till it got dark. ' +
  "I caught two perch and a tiny bass that I threw back. My brother fell in once trying to grab the rope, which I'm never letting him forget.";

/** A stock AI paragraph, long enough (~90 words) to be found as a passage of its own after the human one. */
export const AI_PARAGRAPH =
  "In today's rapidly evolving world, it is important to note that outdoor recreation plays a crucial role in promoting both physical and mental well-being. " +
  'Moreover, engaging in activities such as fishing and boating offers numerous benefits, including stress reduction, enhanced mindfulness, and stronger family bonds. ' +
  'Furthermore, by fostering a deeper connection with nature, individuals can cultivate a sense of gratitude and environmental stewardship. ' +
  'Additionally, these experiences provide valuable opportunities for personal growth, teamwork, and the development of essential life skills. ' +
  'Ultimately, embracing outdoor activities is essential for leading a balanced, fulfilling, and meaningful life in a fast-paced society.';

/** Mixed authorship: the human paragraph, then the AI one. */
export const MIXED = `${HUMAN_PARAGRAPH}\n\n${AI_PARAGRAPH}`;

/**
 * One casual human sentence (23 words) before the AI paragraph: the API reads it as a human passage
 * but calls the text `ai`, not `mixed` (a human passage needs 30+ words: src/detector/decide/mixed.ts).
 */
export const AI_WITH_HUMAN_LINE = `Took me three hours, honestly, because the chain kept slipping off and I'd lost the little spring thing somewhere under the sofa.\n\n${AI_PARAGRAPH}`;

/**
 * 22 words of a formal abstract's opening: it leans AI (score 78 with the model of 2026-11-26) but stays
 * under the threshold at every mode, so `inconclusive` (stock AI phrasing this short is called AI).
 */
export const SHORT_FORMAL =
  'We propose a novel framework that leverages contrastive learning to enhance robustness, and we demonstrate consistent improvements across diverse benchmarks and languages.';

/** "52%": an AI share as the page writes it in English. */
export const percent = (share: number) => `${aiSharePercent(share)}%`;

/** One CSV line split into fields (RFC 4180 quotes). */
export function csvFields(line: string): string[] {
  return [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"'));
}
