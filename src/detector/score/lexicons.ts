/**
 * Style lexicons loaded into the wasm core's lexicon table. Entries are phrases of 1-5 words,
 * matched case-insensitively on whole words. They feed the explanation dimensions; single words
 * of the AI-style lists also stay unmasked for the learned scorer (see vocabulary in train).
 */
import type { ModelLang, TextLang } from '../../contract';
import { LexBit } from './layout';

/** Lexicon language slots: 0 English, 1 Spanish, 2 any language. */
export const LEX_LANG = { en: 0, es: 1, any: 2 } as const;

const words = (s: string): string[] =>
  s
    .split('|')
    .map((w) => w.trim())
    .filter(Boolean);

/** Phrases typical of LLM prose (not of any topic). */
export const STOCK: Record<ModelLang, string[]> = {
  en: words(`delve|delves|delving|tapestry|testament to|in today's fast-paced world|in today's digital age|in the realm of|realm|
    plays a crucial role|play a crucial role|plays a vital role|play a vital role|plays a pivotal role|plays a significant role|
    it is important to note|it's important to note|it is worth noting|it's worth noting|it is essential to|it is crucial to|
    navigate the complexities|navigating the complexities|embark on|embark|ever-evolving|ever-changing|the landscape of|
    foster|fostering|fosters|underscore|underscores|underscoring|multifaceted|intricate|intricacies|holistic|seamless|seamlessly|
    leverage|leveraging|robust|comprehensive|pivotal|paramount|crucial|vital|enhance|enhancing|enhances|showcasing|showcase|vibrant|
    nuanced|profound|unwavering|resonate|resonates|invaluable|myriad|plethora|a wide range of|a variety of|valuable insights|
    shed light on|sheds light on|dive into|dive deeper|unlock|unleash|elevate|game-changer|cutting-edge|harness|harnessing|
    remarkable|meticulous|meticulously|commendable|bustling|captivating|enigmatic|symphony|beacon|treasure trove|whimsical|
    in essence|at its core|serves as a|stands as a|key takeaways|i hope this helps|feel free to|let me know if|as an ai|
    a sense of|sense of community|it is imperative|imperative|furthermore|moreover|additionally|overall|ultimately|
    notably|seamless integration|streamline|streamlined|empower|empowering|transformative|innovative|dynamic|
    ensure|ensuring|ensures|significant|significantly|various|numerous|facilitate|facilitates|utilize|utilizing|
    enduring|indelible|poignant|evocative|intertwined|interplay|journey|navigate|navigating`),
  es: words(`es importante destacar|es importante tener en cuenta|es importante señalar|es fundamental|es crucial|es esencial|
    cabe destacar|cabe mencionar|cabe señalar|juega un papel crucial|juega un papel fundamental|desempeña un papel fundamental|
    desempeña un papel crucial|un papel fundamental|un papel crucial|papel clave|en la actualidad|en el mundo actual|
    fundamental|crucial|esencial|fomentar|fomenta|fomentando|promover|promueve|garantizar|abordar|sumergirse|adentrarse|
    profundizar|enriquecedor|enriquecedora|invaluable|significativo|significativa|significativamente|diversos|diversas|
    una amplia gama de|amplia gama|sin lugar a dudas|un sinfín de|explorar|panorama|ámbito|integral|clave|
    en resumen|en conclusión|en definitiva|asimismo|además|no solo|sino también|a lo largo de|brindar|brinda|
    optimizar|potenciar|impulsar|innovador|innovadora|transformador|vibrante|fascinante|crear un ambiente|
    bienestar|de manera efectiva|de manera significativa|de forma efectiva|contribuir|contribuye|aspectos|enfoque`),
};

/** Discourse transitions; overuse at sentence starts is typical of LLM essays. */
export const TRANSITIONS: Record<ModelLang, string[]> = {
  en: words(`however|moreover|furthermore|additionally|in addition|consequently|therefore|thus|hence|nevertheless|nonetheless|
    in conclusion|to conclude|in summary|to summarize|overall|ultimately|firstly|secondly|thirdly|finally|lastly|
    on the other hand|in contrast|similarly|likewise|as a result|for instance|for example|in fact|indeed|meanwhile|
    subsequently|notably|importantly|accordingly|in particular|specifically|additionally|besides|first and foremost`),
  es: words(`sin embargo|además|asimismo|por otro lado|por lo tanto|en conclusión|en resumen|en definitiva|
    por consiguiente|no obstante|finalmente|en primer lugar|en segundo lugar|en tercer lugar|por último|en cambio|
    de hecho|por ejemplo|es decir|igualmente|del mismo modo|por ende|en este sentido|en otras palabras|a su vez|
    en síntesis|por su parte|en primer término|por lo general|en consecuencia|así pues|de igual manera`),
};

/** "Balanced view" framing: weighing sides without committing. */
export const HEDGES: Record<ModelLang, string[]> = {
  en: words(`on the other hand|some argue|some may argue|some people argue|others argue|others believe|both sides|
    pros and cons|advantages and disadvantages|benefits and drawbacks|it depends on|depending on|a balanced approach|
    while it is true|there is no one-size-fits-all|one-size-fits-all|strike a balance|striking a balance|
    a double-edged sword|several factors|various factors|ultimately depends|it is difficult to say|
    there are valid arguments|both perspectives|weigh the|it can be argued|can be argued|a complex issue`),
  es: words(`por un lado|por otro lado|ventajas y desventajas|pros y contras|depende de|dependerá de|algunos argumentan|
    otros argumentan|algunos sostienen|otros sostienen|ambos lados|un equilibrio|encontrar un equilibrio|si bien|
    aunque es cierto|no existe una respuesta|arma de doble filo|varios factores|diversos factores|ambas perspectivas|
    se puede argumentar|un tema complejo|un equilibrio entre`),
};

/** First-person singular: a personal voice that LLM essays mostly lack. */
export const PERSONAL: Record<ModelLang, string[]> = {
  en: words(`i|me|my|mine|myself|i'm|i've|i'd|i'll`),
  es: words(`yo|mi|mis|conmigo|mío|mía|míos|mías`),
};

/**
 * Real contractions: a possessive ("today's", "the writer's") is not one. The apostrophe-less forms
 * are those that are not also words ("dont", not "cant" or "wont"): one source strips apostrophes.
 * Spanish has no contractions that carry voice ("al", "del" are grammar).
 */
export const CONTRACTIONS: Record<ModelLang, string[]> = {
  en: words(`don't|doesn't|didn't|isn't|aren't|wasn't|weren't|haven't|hasn't|hadn't|won't|wouldn't|can't|couldn't|
    shouldn't|mustn't|needn't|ain't|i'm|i've|i'd|i'll|you're|you've|you'd|you'll|we're|we've|we'd|we'll|they're|
    they've|they'd|they'll|he's|she's|it's|that's|there's|here's|what's|who's|where's|how's|let's|he'd|she'd|he'll|
    she'll|it'll|that'll|there'll|y'all|dont|doesnt|didnt|isnt|arent|wasnt|werent|havent|hasnt|hadnt|wouldnt|couldnt|
    shouldnt|youre|theyre|thats|whats|ive|youve`),
  es: [],
};

/** Casual markers (slang, interjections) rare in LLM output. */
export const INFORMAL: Record<ModelLang, string[]> = {
  en: words(
    `lol|haha|hahaha|gonna|wanna|kinda|sorta|yeah|yep|nope|btw|omg|dunno|y'all|hey|ugh|damn|crap|stuff|guys|ok|okay|tho|cuz|u|ur|pls|idk|imo|imho`,
  ),
  es: words(`jaja|jajaja|jajajaja|pues|bueno|vale|oye|tío|tía|guay|chévere|che|q|xq|pq|tb|tmb|porfa|ok|okey|vaya|ojalá|bah`),
};

/** Function words used to tell English from Spanish (none shared by both languages). */
export const STOP: Record<ModelLang, string[]> = {
  en: words(`the|and|of|to|is|in|that|it|was|for|on|are|with|as|this|be|at|by|have|from|or|an|they|which|you|were|
    her|his|their|has|had|not|but|what|all|we|can|there|been|if|would|will|she|them|these|so|about|into|than|more|
    its|our|who|when|how|also|because|should|could|do|does|my|i|it's|don't|very|just|your`),
  es: words(`el|la|los|las|de|del|que|y|en|un|una|unos|unas|es|por|con|para|se|su|sus|al|lo|como|más|pero|le|ya|
    o|este|esta|estos|estas|sí|porque|muy|sin|sobre|también|entre|cuando|todo|todos|ser|son|fue|ha|hay|donde|desde|
    nos|durante|uno|ni|contra|ese|eso|esa|mí|qué|yo|él|ella|ellos|está|están|mi|mis|tiene|pero|hace|cuando`),
};

/**
 * Function words of Portuguese, Italian, Catalan and French that English and Spanish do not use,
 * so that those languages are reported as "other" instead of being scored as Spanish.
 */
export const NEIGHBOUR_STOP = words(`não|uma|um|com|nós|você|isso|mais|muito|são|ao|na|nas|pelo|pela|é|
  il|di|che|della|nel|nella|sul|sulla|alla|dei|degli|gli|sono|questo|più|anche|perché|è|per|
  amb|els|és|està|però|aquest|perquè|molt|també|
  et|est|une|pas|vous|avec|dans|qui|sur|ce|sont|au|aux|leur|mais|être`);

/** Abbreviations whose period rarely ends a sentence (any language). */
export const ABBREVIATIONS = words(`etc|vs|approx|dept|fig|figs|eq|no|nos|vol|vols|pp|ch|ed|eds|cf|al|esp|inc|ltd|co|corp|
  jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|ej|pág|págs|núm|aprox|art|cap|ud|uds|vd|vds|min|máx|mín|tel|av|avda`);

/** Titles that precede a name: their period never ends a sentence. */
export const TITLES = words(`mr|mrs|ms|dr|prof|sr|sra|srta|dra|st|jr|sres|gen|col|lt|sgt|capt|rev|hon|mt|dña|lic|ing|ee|uu`);

/** Single words of the style lexicons for a language (kept unmasked for the learned scorer). */
export function styleWords(lang: ModelLang): string[] {
  return [...STOCK[lang], ...TRANSITIONS[lang], ...HEDGES[lang], ...INFORMAL[lang]].filter((p) => !p.includes(' '));
}

/** Lexicon slot of a text language ('other' reads English lexicons). */
export function lexLang(lang: TextLang): 0 | 1 {
  return lang === 'es' ? 1 : 0;
}

/**
 * The per-language lexicons loaded into the core, in load order, each with its category bit (the
 * wasm core counts each category per sentence): a new lexicon-backed signal is one entry here.
 */
export const LANG_LEXICONS: readonly (readonly [Record<ModelLang, string[]>, number])[] = [
  [STOP, LexBit.STOP],
  [STOCK, LexBit.STOCK],
  [TRANSITIONS, LexBit.TRANSITION],
  [HEDGES, LexBit.HEDGE],
  [PERSONAL, LexBit.PERSONAL],
  [INFORMAL, LexBit.INFORMAL],
  [CONTRACTIONS, LexBit.CONTRACTION],
];
