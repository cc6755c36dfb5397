// src/contract/errors.ts
class CodedError extends Error {
  code;
  status;
  params;
  constructor(code, status, message = code, params = {}, options) {
    super(message, options);
    this.code = code;
    this.status = status;
    this.params = params;
    this.name = new.target.name;
  }
}

// src/web/strings.ts
var en = {
  title: "AI text detector playground",
  intro: "Paste a text or drop files to see how the self-hosted detector scores them.",
  langLegend: "Language",
  apiKey: "API key",
  apiKeyHint: "Kept in this browser tab only (sessionStorage).",
  sensitivity: "Sensitivity",
  sens_conservative: "Conservative (fewest false positives)",
  sens_balanced: "Balanced",
  sens_aggressive: "Aggressive (catches more)",
  tabText: "Text",
  tabFiles: "Files",
  textLabel: "Text to analyze",
  wordsCount: "{n} words",
  wordsNeeded: "{n} words · {k} more needed (minimum {min})",
  analyze: "Analyze text",
  analyzing: "Analyzing…",
  resultHeading: "Result",
  gaugeLabel: "AI score",
  verdict: "Verdict",
  aiShare: "AI share",
  aiShareHelp: "Words in passages that read as AI-written",
  verdictHint_human: "The text reads as written by a person.",
  verdictHint_likely_human: "The text leans toward a person, with less certainty.",
  verdictHint_inconclusive: "Too little evidence to call either way: the text is short, or its score sits between the thresholds.",
  verdictHint_mixed: "Some passages read as human, others as AI-written: see the shaded passages below.",
  verdictHint_likely_ai: "The text leans toward AI generation, with less certainty.",
  verdictHint_ai: "The text reads as AI-generated.",
  legendAiPassage: "Passage that reads as AI-written",
  legendFlag: "Sentence flagged by a dimension",
  legendHeat: "Shade: each sentence’s AI score",
  gaugeNoVerdict: "AI score · no verdict",
  staleNote: "The text has changed since this result: analyze it again to update it.",
  staleSettingsNote: "The sensitivity or the calibration profile has changed since this result: analyze the text again to update it.",
  staleTextSettingsNote: "The text and the settings have changed since this result: analyze the text again to update it.",
  notMixed: "Why not “Mixed”: {human} of the words are in passages that read as human, but “Mixed” also needs AI passages that hold {min} to {max} of the words, one of them AI-written on its own by the standard a whole text of its length is held to at this sensitivity, and a human passage of {words} or more words that reads as human on its own. This text does not meet all of these, so its verdict is the whole text’s.",
  filesRefused: "Not added (only TXT, MD, DOCX and PDF files): {names}",
  plan_trial: "trial",
  plan_free: "free",
  plan_essential: "essential",
  plan_premium: "premium",
  plan_professional: "professional",
  plan_enterprise: "enterprise",
  aiPassageTag: "AI passage",
  aiPassageTitle: "Reads as AI-written (passage score {score}/100)",
  aiPassageEnd: "End of AI passage",
  leaning_ai: "Points to AI",
  leaning_human: "Points to a person",
  leaning_neutral: "Note",
  colAiShare: "AI share",
  docType: "Document type",
  msCost: "Processing time",
  msUnit: "{n} ms",
  wordsRemaining: "Words left this month",
  activeDims: "{a} of {t} dimensions detected",
  annotatedHeading: "Your text, flagged sentences marked",
  annotatedHelp: "Marked sentences (⚑, underlined) looked machine-written. Hover or focus one to see why.",
  flaggedBy: "Flagged by: {dims}",
  noFlags: "No sentence was flagged.",
  dimsHeading: "Dimensions",
  detected: "Detected",
  notDetected: "Not detected",
  unavailable: "Not used by this model",
  unavailableHelp: "in the model’s tests these signals did not tell human from AI writing in the language of this text, so the model does not check or count them, and no reason on this page rests on them.",
  dimFlaggedIn: "Marks {n} flagged sentence(s) in your text.",
  dimWholeText: "Measured over the whole text: no single sentence shows it strongly enough to be flagged, so it does not weigh on the verdict by itself.",
  gaugeMixed: "AI score · mixed authorship",
  staleLangNote: "This result is in {language}: analyze the text again to read it in English.",
  filesStaleLangNote: "These results are in {language}: analyze the files again to read them in English.",
  langName_en: "English",
  langName_es: "Spanish",
  bulletsHeading: "Why",
  showPassage: "Show passage",
  noBullets: "Nothing notable to explain.",
  filesLabel: "Choose files (TXT, MD, DOCX, PDF)",
  dropHint: "or drop them here",
  filesChosen: "{n} file(s) chosen",
  analyzeFiles: "Analyze files",
  progressLabel: "Progress",
  progressNow: "Processing {name}",
  progressDone: "Done",
  colFile: "File",
  colWords: "Words",
  colScore: "Score",
  colVerdict: "Verdict",
  colFlagged: "Flagged sentences",
  colDocType: "Doc type",
  fileError: "Error: {message}",
  downloadCsv: "Download CSV",
  errorPrefix: "Error",
  errNeedKey: "Enter a valid API key in the “API key” field and try again.",
  errQuotaReset: "Your word quota resets on {when}.",
  usageLine: "Plan {plan}: {remaining} of {limit} words left this month (resets {reset})",
  usageTrial: "; {calls} trial calls left",
  fileReasons: "Why",
  errNetwork: "Could not reach the server. Check your connection and try again.",
  errNoFiles: "Choose at least one file first.",
  errBadStream: "The server sent a response the page could not read.",
  errTooLarge: "The text or the files are too large for the server.",
  errHttp: "The server answered with status {status}.",
  progressIncomplete: "The server stopped before every file was processed.",
  tabCalibration: "Calibration",
  calibrationIntro: "Make a calibration profile from texts you know were written by people (your own writers: work from before 2022, your staff’s texts). Detections that use it set their thresholds on your writers, and say how often each mode flags them.",
  calibrationChoice: "Calibration profile",
  calibrationNone: "None (default thresholds)",
  calibrationNameLabel: "Profile name",
  calibrationFilesLabel: "Choose human-written files (TXT, MD, DOCX, PDF)",
  calibrationNeeds: "At least {min} texts of {words}+ words in each language you give.",
  createProfile: "Create profile",
  creatingProfile: "Scoring the texts…",
  profilesHeading: "Your profiles",
  profilesEmpty: "This key has no calibration profile yet.",
  profilesNeedKey: "Enter an API key to see its calibration profiles.",
  profileCreated: "Profile “{name}” created.",
  profileSkipped: "{n} file(s) not used: under 20 words, or unreadable.",
  profileMeta: "Made {date} with model {model}",
  profileStale: "Made with another model: not used until you make it again from the same texts.",
  profileLang: "{lang}: {n} texts, {min}–{max} words",
  profileLangOpen: "{lang}: {n} texts, {min}+ words",
  profileLangNoLength: "{lang}: {n} texts, too few of any one length to cover it",
  lang_en: "English",
  lang_es: "Spanish",
  colMode: "Mode",
  colThreshold: "AI from score",
  colThresholdLogit: "Threshold (model logit)",
  colOwnFlagged: "Its own texts flagged",
  thresholdLogitHelp: "The threshold is on the model’s raw scale (its logit), from which the mode calls a covered text AI; on the 0–100 score it depends on the text’s length.",
  colUpperBound: "At most (95% bound)",
  ownFlagged: "{k} of {n} ({rate})",
  ownMixed: "{m} of them read as mixed: flagged whatever the bar",
  modeDefault: "Too few texts for this mode: the default threshold is used.",
  mode_conservative: "Conservative",
  mode_balanced: "Balanced",
  mode_aggressive: "Aggressive",
  useProfile: "Use for detection",
  inUse: "In use",
  deleteProfile: "Delete",
  deleteConfirm: "Delete the profile “{name}”? Detections can no longer use it.",
  calibrationApplied: "Profile “{name}” applied: this mode’s threshold comes from its texts.",
  calibrationNotApplied: "Profile “{name}” not applied: {reason}",
  reason_model_changed: "it was made with an earlier model, so the default thresholds were used. Make it again from the same texts.",
  reason_language_not_covered: "it has no texts in this text’s language, so the default thresholds were used.",
  reason_doc_type_not_covered: "it has too few texts of this document type ({docType}), so the stricter of its threshold and the default one was used.",
  reason_length_not_covered: "this text’s length is outside the lengths it covers, so the stricter of its threshold and the default one was used.",
  reason_too_few_texts: "it has too few texts to keep this mode’s promise, so the default threshold was used.",
  reason_unknown: "the default thresholds were used.",
  calNoteApplied: "Profile “{name}”: applied",
  calNoteNotApplied: "Profile “{name}”: not applied ({why})",
  why_model_changed: "made with another model",
  why_language_not_covered: "other language",
  why_doc_type_not_covered: "other document type",
  why_length_not_covered: "other length",
  why_too_few_texts: "too few texts for this mode",
  why_unknown: "default thresholds",
  profileStaleShort: "made with another model",
  errCalibrationTooSmall: "Too few usable texts: a profile needs at least {min} texts of {words} words or more in each language.",
  errCalibrationNoName: "Give the profile a name.",
  calibrationAiLabel: "AI examples, optional (TXT, MD, DOCX, PDF)",
  calibrationAiHelp: "Texts you had the models your writers use write for your own prompts (your assignments, your titles), one text a file. With at least {min} of them in a language, the profile also learns from them and catches more text like theirs; the thresholds are still set on your human texts. Charged like the human texts.",
  profileSkippedNamed: "{n} file(s) not used: {list}.",
  skippedFile: "{name}: {message}",
  profileWarningsBelow: "See its {n} warning(s) below.",
  profileDuplicates: "Left out as duplicates of another text of the set (each text counts once; not charged): {human} human text(s), {ai} AI example(s).",
  warnLabellingConflict: "{n} text(s) were given both as human and as AI examples (the same text or a near-copy): each was used as a human text only. Check the labels.",
  warnModeNotCovered: "{mode} has no bar of its own: {texts} texts, {needed} needed. Detections at this sensitivity use the default threshold.",
  adaptedLine: "Adapted. On your {n} AI examples, this profile catches {caught} at balanced; the model alone {model} (cross-validated: each example scored by a fit that never saw it).",
  notAdapted_no_ai_texts: "Calibration only: no AI examples of this language were given.",
  notAdapted_too_few_ai_texts: "Not adapted: too few AI examples ({n} of the {min} needed). This language is calibration only.",
  notAdapted_not_separable: "Not adapted: your {n} AI examples cannot be told from your human texts, so what the profile learned from them is not applied. This language is calibration only.",
  notAdapted_no_gain: "Not adapted: adapting caught no more of your {n} AI examples than the model alone, so it is not applied. This language is calibration only.",
  notAdapted_examples_look_human: "Not adapted: what sets your {n} AI examples apart from your human texts is also written by other human writers, so once the thresholds protect them nothing is gained. This language is calibration only: check that the examples are AI text.",
  colAiCaught: "Your AI examples caught",
  aiCaught: "{rate} ({k} of {n}) · model alone {model}",
  adaptedTableHelp: "A text this profile covers is decided on its adapted score: the bars above are on that score, set on your human texts, each scored by a fit that never saw it.",
  modelScore: "Adapted by your profile · the model alone: {score}",
  calibrationAdapted: "Profile “{name}” applied and adapted: the score is the profile’s, learned from your AI examples beside its human texts, and this mode’s threshold comes from its texts.",
  calNoteAdapted: "Profile “{name}”: applied, score adapted",
  modelScoreShort: "model alone: {score}",
  otherWritersHead: "Writers unlike yours (reference texts of the kinds this profile covers), per mode:",
  otherWritersGuard: "Writers unlike yours: {references} reference texts of {populations} groups, of the kinds this profile covers (shipped with the model). Per mode:",
  otherWritersOnLoad: "This profile was made before the guard: its bars were guarded when it was read.",
  warn_examples_rank_below_human: "The model reads your {n} AI examples as more human than your human texts (AUROC {auroc}): check the labels. Were human texts given as AI examples?",
  warn_examples_differ_in_form: "Your AI examples differ from your human texts mainly in form: {form} ({ai} of the examples, {human} of the human texts). A profile would learn that form as AI and flag human texts written that way: {check}",
  warn_mode_fell_back: "At {mode}, the adapted score caught fewer of your {n} AI examples ({caught}) than the model alone with your thresholds ({modelCaught}): this mode decides without the adaptation.",
  form_tokenised: "punctuation split from words (he' s, don' t, word , word)",
  form_wrapped: "line breaks inside paragraphs",
  form_markdown: "Markdown (headings, lists, bold)",
  form_curly: "curly quotes and apostrophes",
  form_casing: "unusual casing (no capitals, or mostly capitals)",
  form_opening: 'the opening word "{word}"',
  form_closing: "a closing line (a signature or sign-off) most texts of one side share",
  check_tokenised: "check that both sides were exported the same way, and undo the tokenisation of the archive.",
  check_wrapped: "remove hard line breaks on the side that has them, or give texts with the same line breaks.",
  check_markdown: "give examples as plain text, like your human texts, or human texts in Markdown too.",
  check_curly: "make the quotes of both sides the same.",
  check_casing: "check that both sides keep their original casing.",
  check_opening: 'remove the shared opening ("{word}") from the examples.',
  check_closing: "remove the signature or sign-off from the side that has it.",
  modeFellBack: "Decides without the adaptation here: it caught fewer of your AI examples ({caught}) than your calibration-only bar ({model}).",
  otherWritersLine: "{mode}: other writers: flagged {rate} of {texts} reference texts; most: {label} {most} (model alone {model})",
  otherWritersLineNoMost: "{mode}: other writers: flagged {rate} of {texts} reference texts",
  otherWritersLineNone: "{mode}: other writers: no reference group of the kinds this profile covers",
  otherWritersRaised: " (bar raised by the guard)",
  otherWritersHelp: "The bars keep their promise for texts like yours. These are human writers of the same kinds that your texts leave out (shipped with the model): no group of them is flagged much more than the model alone flags it; where your texts would have set a lower bar, the guard raised it."
};
var es = {
  title: "Zona de pruebas del detector de texto IA",
  intro: "Pegue un texto o suelte archivos para ver cómo los puntúa el detector autoalojado.",
  langLegend: "Idioma",
  apiKey: "Clave de API",
  apiKeyHint: "Se guarda solo en esta pestaña del navegador (sessionStorage).",
  sensitivity: "Sensibilidad",
  sens_conservative: "Conservadora (menos falsos positivos)",
  sens_balanced: "Equilibrada",
  sens_aggressive: "Agresiva (detecta más)",
  tabText: "Texto",
  tabFiles: "Archivos",
  textLabel: "Texto para analizar",
  wordsCount: "{n} palabras",
  wordsNeeded: "{n} palabras · faltan {k} (mínimo {min})",
  analyze: "Analizar texto",
  analyzing: "Analizando…",
  resultHeading: "Resultado",
  gaugeLabel: "Puntuación IA",
  verdict: "Veredicto",
  aiShare: "Proporción IA",
  aiShareHelp: "Palabras en pasajes que parecen escritos por IA",
  verdictHint_human: "El texto parece escrito por una persona.",
  verdictHint_likely_human: "El texto se inclina hacia una persona, con menos certeza.",
  verdictHint_inconclusive: "No hay evidencia suficiente para decidir: el texto es corto o su puntuación queda entre los umbrales.",
  verdictHint_mixed: "Unos pasajes parecen humanos y otros escritos por IA: vea los pasajes sombreados abajo.",
  verdictHint_likely_ai: "El texto se inclina hacia la generación por IA, con menos certeza.",
  verdictHint_ai: "El texto parece generado por IA.",
  legendAiPassage: "Pasaje que parece escrito por IA",
  legendFlag: "Frase señalada por una dimensión",
  legendHeat: "Sombreado: la puntuación IA de cada frase",
  gaugeNoVerdict: "Puntuación IA · sin veredicto",
  staleNote: "El texto ha cambiado desde este resultado: vuelva a analizarlo para actualizarlo.",
  staleSettingsNote: "La sensibilidad o el perfil de calibración han cambiado desde este resultado: vuelva a analizar el texto para actualizarlo.",
  staleTextSettingsNote: "El texto y los ajustes han cambiado desde este resultado: vuelva a analizar el texto para actualizarlo.",
  notMixed: "Por qué no «Mixto»: el {human} de las palabras está en pasajes que parecen humanos, pero «Mixto» exige además que los pasajes de IA reúnan entre el {min} y el {max} de las palabras, que uno de ellos sea de IA por sí solo con el criterio que se aplica a un texto entero de su longitud en esta sensibilidad, y que haya un pasaje humano de {words} palabras o más que parezca humano por sí solo. Este texto no lo cumple todo, así que su veredicto es el del texto entero.",
  filesRefused: "No se añadieron (solo archivos TXT, MD, DOCX y PDF): {names}",
  plan_trial: "de prueba",
  plan_free: "gratuito",
  plan_essential: "esencial",
  plan_premium: "prémium",
  plan_professional: "profesional",
  plan_enterprise: "empresa",
  aiPassageTag: "Pasaje IA",
  aiPassageTitle: "Parece escrito por IA (puntuación del pasaje {score}/100)",
  aiPassageEnd: "Fin del pasaje IA",
  leaning_ai: "Apunta a IA",
  leaning_human: "Apunta a una persona",
  leaning_neutral: "Nota",
  colAiShare: "Proporción IA",
  docType: "Tipo de documento",
  msCost: "Tiempo de proceso",
  msUnit: "{n} ms",
  wordsRemaining: "Palabras restantes este mes",
  activeDims: "{a} de {t} dimensiones detectadas",
  annotatedHeading: "Su texto, con las frases señaladas marcadas",
  annotatedHelp: "Las frases marcadas (⚑, subrayadas) parecían escritas por una máquina. Pase el ratón o el foco por una para ver por qué.",
  flaggedBy: "Señalada por: {dims}",
  noFlags: "No se señaló ninguna frase.",
  dimsHeading: "Dimensiones",
  detected: "Detectada",
  notDetected: "No detectada",
  unavailable: "No lo usa este modelo",
  unavailableHelp: "en las pruebas del modelo estas señales no distinguieron la escritura humana de la de una IA en el idioma de este texto, así que el modelo no las evalúa ni las cuenta, y ningún motivo de esta página se basa en ellas.",
  dimFlaggedIn: "Marca {n} frase(s) señalada(s) en su texto.",
  dimWholeText: "Medida sobre el texto entero: ninguna frase la muestra con fuerza suficiente para señalarla, así que por sí sola no pesa en el veredicto.",
  gaugeMixed: "Puntuación IA · autoría mixta",
  staleLangNote: "Este resultado está en {language}: vuelva a analizar el texto para leerlo en español.",
  filesStaleLangNote: "Estos resultados están en {language}: vuelva a analizar los archivos para leerlos en español.",
  langName_en: "inglés",
  langName_es: "español",
  bulletsHeading: "Por qué",
  showPassage: "Ver pasaje",
  noBullets: "Nada destacable que explicar.",
  filesLabel: "Elija archivos (TXT, MD, DOCX, PDF)",
  dropHint: "o suéltelos aquí",
  filesChosen: "{n} archivo(s) elegido(s)",
  analyzeFiles: "Analizar archivos",
  progressLabel: "Progreso",
  progressNow: "Procesando {name}",
  progressDone: "Terminado",
  colFile: "Archivo",
  colWords: "Palabras",
  colScore: "Puntuación",
  colVerdict: "Veredicto",
  colFlagged: "Frases señaladas",
  colDocType: "Tipo de documento",
  fileError: "Error: {message}",
  downloadCsv: "Descargar CSV",
  errorPrefix: "Error",
  errNeedKey: "Escriba una clave de API válida en el campo «Clave de API» y vuelva a intentarlo.",
  errQuotaReset: "Su cuota de palabras se renueva el {when}.",
  usageLine: "Plan {plan}: quedan {remaining} de {limit} palabras este mes (se renueva el {reset})",
  usageTrial: "; quedan {calls} llamadas de prueba",
  fileReasons: "Por qué",
  errNetwork: "No se pudo contactar con el servidor. Compruebe la conexión y vuelva a intentarlo.",
  errNoFiles: "Elija al menos un archivo primero.",
  errBadStream: "El servidor envió una respuesta que la página no pudo leer.",
  errTooLarge: "El texto o los archivos son demasiado grandes para el servidor.",
  errHttp: "El servidor respondió con el estado {status}.",
  progressIncomplete: "El servidor se detuvo antes de procesar todos los archivos.",
  tabCalibration: "Calibración",
  calibrationIntro: "Cree un perfil de calibración con textos que sabe escritos por personas (sus propios autores: trabajos anteriores a 2022, textos de su equipo). Las detecciones que lo usan fijan sus umbrales en sus autores y dicen con qué frecuencia cada modo los marca.",
  calibrationChoice: "Perfil de calibración",
  calibrationNone: "Ninguno (umbrales por defecto)",
  calibrationNameLabel: "Nombre del perfil",
  calibrationFilesLabel: "Elija archivos escritos por personas (TXT, MD, DOCX, PDF)",
  calibrationNeeds: "Al menos {min} textos de {words} palabras o más en cada idioma que aporte.",
  createProfile: "Crear perfil",
  creatingProfile: "Puntuando los textos…",
  profilesHeading: "Sus perfiles",
  profilesEmpty: "Esta clave aún no tiene ningún perfil de calibración.",
  profilesNeedKey: "Escriba una clave de API para ver sus perfiles de calibración.",
  profileCreated: "Perfil «{name}» creado.",
  profileSkipped: "{n} archivo(s) sin usar: menos de 20 palabras, o ilegibles.",
  profileMeta: "Creado el {date} con el modelo {model}",
  profileStale: "Creado con otro modelo: no se usa hasta que lo vuelva a crear con los mismos textos.",
  profileLang: "{lang}: {n} textos, {min}–{max} palabras",
  profileLangOpen: "{lang}: {n} textos, {min} palabras o más",
  profileLangNoLength: "{lang}: {n} textos, pocos de cada longitud para cubrir alguna",
  lang_en: "Inglés",
  lang_es: "Español",
  colMode: "Modo",
  colThreshold: "IA desde la puntuación",
  colThresholdLogit: "Umbral (logit del modelo)",
  colOwnFlagged: "Sus propios textos marcados",
  thresholdLogitHelp: "El umbral está en la escala interna del modelo (su logit), a partir de la cual el modo considera IA un texto cubierto; en la puntuación de 0 a 100 depende de la longitud del texto.",
  colUpperBound: "Como máximo (cota del 95 %)",
  ownFlagged: "{k} de {n} ({rate})",
  ownMixed: "{m} de ellos se leen como mixtos: se marcan sea cual sea el umbral",
  modeDefault: "Pocos textos para este modo: se usa el umbral por defecto.",
  mode_conservative: "Conservador",
  mode_balanced: "Equilibrado",
  mode_aggressive: "Agresivo",
  useProfile: "Usar en la detección",
  inUse: "En uso",
  deleteProfile: "Eliminar",
  deleteConfirm: "¿Eliminar el perfil «{name}»? Las detecciones ya no podrán usarlo.",
  calibrationApplied: "Perfil «{name}» aplicado: el umbral de este modo sale de sus textos.",
  calibrationNotApplied: "Perfil «{name}» no aplicado: {reason}",
  reason_model_changed: "se creó con un modelo anterior, así que se usaron los umbrales por defecto. Vuelva a crearlo con los mismos textos.",
  reason_language_not_covered: "no tiene textos en el idioma de este texto, así que se usaron los umbrales por defecto.",
  reason_doc_type_not_covered: "tiene pocos textos de este tipo de documento ({docType}), así que se usó el más estricto entre su umbral y el de por defecto.",
  reason_length_not_covered: "la longitud de este texto queda fuera de las que cubre, así que se usó el más estricto entre su umbral y el de por defecto.",
  reason_too_few_texts: "tiene pocos textos para cumplir la promesa de este modo, así que se usó el umbral por defecto.",
  reason_unknown: "se usaron los umbrales por defecto.",
  calNoteApplied: "Perfil «{name}»: aplicado",
  calNoteNotApplied: "Perfil «{name}»: no aplicado ({why})",
  why_model_changed: "creado con otro modelo",
  why_language_not_covered: "otro idioma",
  why_doc_type_not_covered: "otro tipo de documento",
  why_length_not_covered: "otra longitud",
  why_too_few_texts: "pocos textos para este modo",
  why_unknown: "umbrales por defecto",
  profileStaleShort: "creado con otro modelo",
  errCalibrationTooSmall: "Hay pocos textos utilizables: un perfil necesita al menos {min} textos de {words} palabras o más en cada idioma.",
  errCalibrationNoName: "Dé un nombre al perfil.",
  calibrationAiLabel: "Ejemplos de IA, opcionales (TXT, MD, DOCX, PDF)",
  calibrationAiHelp: "Textos que pidió a los modelos que usan sus autores con sus propias consignas (sus tareas, sus títulos), un texto por archivo. Con al menos {min} en un idioma, el perfil también aprende de ellos y detecta más textos como los suyos; los umbrales se siguen fijando en sus textos humanos. Se cobran como los textos humanos.",
  profileSkippedNamed: "{n} archivo(s) sin usar: {list}.",
  skippedFile: "{name}: {message}",
  profileWarningsBelow: "Vea abajo sus avisos ({n}).",
  profileDuplicates: "Se dejaron fuera por repetir otro texto del conjunto (cada texto cuenta una vez; no se cobran): {human} texto(s) humano(s), {ai} ejemplo(s) de IA.",
  warnLabellingConflict: "{n} texto(s) se aportaron a la vez como humanos y como ejemplos de IA (el mismo texto o una copia casi igual): cada uno se usó solo como texto humano. Revise las etiquetas.",
  warnModeNotCovered: "El modo {mode} no tiene umbral propio: {texts} textos, hacen falta {needed}. Las detecciones con esta sensibilidad usan el umbral por defecto.",
  adaptedLine: "Adaptado. De sus {n} ejemplos de IA, este perfil detecta el {caught} en modo equilibrado; el modelo solo, el {model} (validación cruzada: cada ejemplo, puntuado por un ajuste que nunca lo vio).",
  notAdapted_no_ai_texts: "Solo calibración: no se aportaron ejemplos de IA de este idioma.",
  notAdapted_too_few_ai_texts: "No adaptado: pocos ejemplos de IA ({n} de los {min} necesarios). Este idioma es solo de calibración.",
  notAdapted_not_separable: "No adaptado: sus {n} ejemplos de IA no se distinguen de sus textos humanos, así que lo aprendido de ellos no se aplica. Este idioma es solo de calibración.",
  notAdapted_no_gain: "No adaptado: adaptar no detectó más de sus {n} ejemplos de IA que el modelo solo, así que no se aplica. Este idioma es solo de calibración.",
  notAdapted_examples_look_human: "No adaptado: lo que distingue sus {n} ejemplos de IA de sus textos humanos también lo escriben otras personas, así que, con los umbrales protegiéndolas, no se gana nada. Este idioma es solo de calibración: compruebe que los ejemplos son texto de IA.",
  colAiCaught: "Sus ejemplos de IA detectados",
  aiCaught: "{rate} ({k} de {n}) · el modelo solo, {model}",
  adaptedTableHelp: "Un texto que este perfil cubre se decide con su puntuación adaptada: los umbrales de arriba están en esa puntuación, fijados en sus textos humanos, cada uno puntuado por un ajuste que nunca lo vio.",
  modelScore: "Adaptada por su perfil · el modelo solo: {score}",
  calibrationAdapted: "Perfil «{name}» aplicado y adaptado: la puntuación es la del perfil, aprendida de sus ejemplos de IA junto a sus textos humanos, y el umbral de este modo sale de sus textos.",
  calNoteAdapted: "Perfil «{name}»: aplicado, puntuación adaptada",
  modelScoreShort: "el modelo solo: {score}",
  otherWritersHead: "Personas que escriben distinto de las suyas (textos de referencia de los tipos que cubre este perfil), por modo:",
  otherWritersGuard: "Personas que escriben distinto de las suyas: {references} textos de referencia de {populations} grupos, de los tipos que cubre este perfil (vienen con el modelo). Por modo:",
  otherWritersOnLoad: "Este perfil se hizo antes de la salvaguarda: sus umbrales se protegieron al leerlo.",
  warn_examples_rank_below_human: "El modelo lee sus {n} ejemplos de IA como más humanos que sus textos humanos (AUROC {auroc}): compruebe las etiquetas. ¿Se dieron textos humanos como ejemplos de IA?",
  warn_examples_differ_in_form: "Sus ejemplos de IA se distinguen de sus textos humanos sobre todo por la forma: {form} ({ai} de los ejemplos, {human} de los textos humanos). Un perfil aprendería esa forma como IA y marcaría los textos humanos escritos así: {check}",
  warn_mode_fell_back: "En modo {mode}, la puntuación adaptada detectó menos de sus {n} ejemplos de IA ({caught}) que el modelo solo con sus umbrales ({modelCaught}): este modo decide sin la adaptación.",
  form_tokenised: "la puntuación separada de las palabras (he' s, don' t, palabra , palabra)",
  form_wrapped: "saltos de línea dentro de los párrafos",
  form_markdown: "Markdown (títulos, listas, negrita)",
  form_curly: "comillas y apóstrofos tipográficos",
  form_casing: "mayúsculas poco habituales (ninguna, o casi todo en mayúsculas)",
  form_opening: "la palabra inicial «{word}»",
  form_closing: "una línea final (una firma o despedida) que comparten la mayoría de los textos de un lado",
  check_tokenised: "compruebe que ambos lados se exportaron igual y deshaga la separación de la puntuación del archivo.",
  check_wrapped: "quite los saltos de línea del lado que los tiene, o aporte textos con los mismos saltos.",
  check_markdown: "aporte los ejemplos como texto plano, como sus textos humanos, o también textos humanos en Markdown.",
  check_curly: "unifique las comillas de ambos lados.",
  check_casing: "compruebe que ambos lados conservan sus mayúsculas originales.",
  check_opening: "quite de los ejemplos la palabra inicial común («{word}»).",
  check_closing: "quite la firma o despedida del lado que la tiene.",
  modeFellBack: "Aquí decide sin la adaptación: detectó menos de sus ejemplos de IA ({caught}) que su umbral de solo calibración ({model}).",
  otherWritersLine: "{mode}: otras personas: marcó el {rate} de {texts} textos de referencia; el grupo más marcado: «{label}», el {most} (el modelo solo, el {model})",
  otherWritersLineNoMost: "{mode}: otras personas: marcó el {rate} de {texts} textos de referencia",
  otherWritersLineNone: "{mode}: otras personas: ningún grupo de referencia de los tipos que cubre este perfil",
  otherWritersRaised: " (umbral subido por la salvaguarda)",
  otherWritersHelp: "Los umbrales cumplen su promesa en textos como los suyos. Estos son textos humanos de los mismos tipos que sus textos no incluyen (vienen con el modelo): ningún grupo se marca mucho más de lo que lo marca el modelo solo; donde sus textos habrían fijado un umbral más bajo, la salvaguarda lo subió."
};
var STRINGS = { en, es };
function tr(lang, key, vars = {}) {
  return STRINGS[lang][key].replace(/\{(\w+)\}/g, (m, name) => (name in vars) ? String(vars[name]) : m);
}

// src/web/api.ts
var DETECT_PATH = "/v1/detect";
var USAGE_PATH = "/v1/usage";

class ApiError extends CodedError {
  headers;
  name = "ApiError";
  constructor(status, code, message, headers) {
    super(code, status, message);
    this.headers = headers;
  }
}
function headersFor(key, lang) {
  return { "X-API-Key": key, "Accept-Language": lang, Accept: "application/json, application/x-ndjson" };
}
async function toApiError(res) {
  let code = `http_${res.status}`;
  let message = "";
  try {
    const body = await res.json();
    if (body?.error?.code)
      code = body.error.code;
    if (body?.error?.message)
      message = body.error.message;
  } catch {}
  return new ApiError(res.status, code, message, res.headers);
}
async function detectText(key, lang, text, sensitivity, calibration = "") {
  const res = await fetch(DETECT_PATH, {
    method: "POST",
    headers: { ...headersFor(key, lang), "Content-Type": "application/json" },
    body: JSON.stringify(calibration ? { text, sensitivity, calibration } : { text, sensitivity })
  });
  if (!res.ok)
    throw await toApiError(res);
  return { data: await res.json(), headers: res.headers };
}
async function fetchUsage(key, lang) {
  const res = await fetch(USAGE_PATH, { headers: headersFor(key, lang) });
  if (!res.ok)
    throw await toApiError(res);
  return await res.json();
}
function planName(plan, lang) {
  const key = `plan_${plan}`;
  return Object.hasOwn(STRINGS[lang], key) ? tr(lang, key) : plan;
}
function usageText(usage, lang) {
  const n = (value) => value.toLocaleString(lang);
  const reset = new Intl.DateTimeFormat(lang, { month: "long", day: "numeric", timeZone: "UTC" }).format(new Date(usage.period.end));
  const line = tr(lang, "usageLine", {
    plan: planName(usage.plan, lang),
    remaining: n(usage.words.remaining),
    limit: n(usage.words.limit),
    reset
  });
  return usage.trial ? line + tr(lang, "usageTrial", { calls: n(usage.trial.callsRemaining) }) : line;
}
async function detectFiles(key, lang, files, sensitivity, calibration = "", signal) {
  const form = new FormData;
  for (const f of files)
    form.append("files[]", f, f.name);
  form.append("sensitivity", sensitivity);
  if (calibration)
    form.append("calibration", calibration);
  form.append("lang", lang);
  form.append("detail", "full");
  const res = await fetch(DETECT_PATH, { method: "POST", headers: headersFor(key, lang), body: form, signal });
  if (!res.ok)
    throw await toApiError(res);
  return res;
}
async function* readNdjson(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder;
  let buffered = "";
  for (;; ) {
    const { value, done } = await reader.read();
    buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffered.indexOf(`
`)) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line)
        yield JSON.parse(line);
    }
    if (done)
      break;
  }
  if (buffered.trim())
    yield JSON.parse(buffered);
}
function quotaResetDate(headers, now = Date.now()) {
  const reset = Number(headers.get("X-RateLimit-Reset"));
  if (Number.isFinite(reset) && reset > 0)
    return new Date(reset * 1000);
  const retry = Number(headers.get("Retry-After"));
  if (Number.isFinite(retry) && retry >= 0 && headers.get("Retry-After") !== null)
    return new Date(now + retry * 1000);
  return null;
}
function describeError(err, lang) {
  if (!(err instanceof ApiError)) {
    return err instanceof SyntaxError ? tr(lang, "errBadStream") : tr(lang, "errNetwork");
  }
  const fallback = err.status === 413 ? tr(lang, "errTooLarge") : tr(lang, "errHttp", { status: err.status });
  const parts = [err.message || fallback];
  if (err.status === 401)
    parts.push(tr(lang, "errNeedKey"));
  if (err.status === 429 && err.code !== "rate_limited") {
    const when = quotaResetDate(err.headers);
    if (when) {
      const fmt = new Intl.DateTimeFormat(lang, {
        year: "numeric",
        month: "long",
        day: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        timeZoneName: "short"
      });
      parts.push(tr(lang, "errQuotaReset", { when: fmt.format(when) }));
    }
  }
  return parts.join(" ");
}
// src/contract/languages.ts
var MODEL_LANGS = ["en", "es"];
var TEXT_LANGS = [...MODEL_LANGS, "other"];
// src/contract/sensitivity.ts
var SENSITIVITIES = ["conservative", "balanced", "aggressive"];
// src/contract/share.ts
function aiSharePercent(share) {
  return Math.round(Math.round(share * 1000) / 10);
}
// src/contract/verdicts.ts
var VERDICT_KEYS = ["human", "likely_human", "inconclusive", "mixed", "likely_ai", "ai"];
function isAiVerdict(v) {
  return v === "ai" || v === "likely_ai" || v === "mixed";
}
// src/contract/words.ts
var OTHER = 1;
var LETTER_OR_DIGIT = 2;
var MARK = 3;
var FORMAT = 4;
var bmpClass = new Uint8Array(65536);
var IS_LN = /^[\p{L}\p{N}]$/u;
var IS_M = /^\p{M}$/u;
var IS_CF = /^\p{Cf}$/u;
function classOf(cp) {
  if (cp < 65536) {
    const known = bmpClass[cp];
    if (known !== 0)
      return known;
  }
  const ch = String.fromCodePoint(cp);
  const c = IS_LN.test(ch) ? LETTER_OR_DIGIT : IS_M.test(ch) ? MARK : IS_CF.test(ch) ? FORMAT : OTHER;
  if (cp < 65536)
    bmpClass[cp] = c;
  return c;
}
var isJoiner = (c) => c === 39 || c === 8217 || c === 8208 || c === 45;
function nextClass(text, i) {
  while (i < text.length) {
    const cp = text.codePointAt(i);
    const c = classOf(cp);
    if (c !== FORMAT)
      return c;
    i += cp > 65535 ? 2 : 1;
  }
  return OTHER;
}
function countWords(text) {
  let n = 0;
  let inWord = false;
  const len = text.length;
  for (let i = 0;i < len; ) {
    let cp = text.charCodeAt(i);
    let size = 1;
    let c = bmpClass[cp];
    if (cp >= 55296 && cp <= 56319) {
      cp = text.codePointAt(i);
      size = cp > 65535 ? 2 : 1;
      c = classOf(cp);
    } else if (c === 0)
      c = classOf(cp);
    if (c === FORMAT) {} else if (c === LETTER_OR_DIGIT || inWord && c === MARK) {
      if (!inWord)
        n++;
      inWord = true;
    } else if (inWord && isJoiner(cp) && nextClass(text, i + size) !== OTHER) {} else {
      inWord = false;
    }
    i += size;
  }
  return n;
}
var MIN_WORDS = 20;
// src/web/dom.ts
function byId(id) {
  return document.getElementById(id);
}
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls)
    node.className = cls;
  if (text !== undefined)
    node.textContent = text;
  return node;
}

// src/web/calibration.ts
var CALIBRATIONS_PATH = "/v1/calibrations";
var MIN_PROFILE_TEXTS = 50;
var MIN_AI_TEXTS = 50;
async function send(url, init) {
  const res = await fetch(url, init);
  if (!res.ok)
    throw await toApiError(res);
  return res;
}
async function createProfile(key, lang, name, files, aiFiles = []) {
  const form = new FormData;
  form.append("name", name);
  for (const f of files)
    form.append("files[]", f, f.name);
  for (const f of aiFiles)
    form.append("aiFiles[]", f, f.name);
  const res = await send(CALIBRATIONS_PATH, { method: "POST", headers: headersFor(key, lang), body: form });
  return await res.json();
}
async function listProfiles(key, lang) {
  const body = await (await send(CALIBRATIONS_PATH, { headers: headersFor(key, lang) })).json();
  const list = Array.isArray(body) ? body : body.calibrations ?? body.data ?? [];
  return [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
async function deleteProfile(key, lang, id) {
  await send(`${CALIBRATIONS_PATH}/${encodeURIComponent(id)}`, { method: "DELETE", headers: headersFor(key, lang) });
}
function formatRate(share, lang) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 }).format(share);
}
function describeCalibrationError(err, lang) {
  const tooSmall = err instanceof ApiError && (err.code === "calibration_too_small" || err.code === "calibration_empty");
  return tooSmall && !err.message ? tr(lang, "errCalibrationTooSmall", { min: MIN_PROFILE_TEXTS, words: MIN_WORDS }) : null;
}
function calibrationLine(use, docTypeLabel, lang) {
  if (use.applied && use.adapted)
    return tr(lang, "calibrationAdapted", { name: use.name });
  if (use.applied)
    return tr(lang, "calibrationApplied", { name: use.name });
  const reasonKey = use.reason ? `reason_${use.reason}` : "reason_unknown";
  const reason = tr(lang, reasonKey, { docType: docTypeLabel });
  return tr(lang, "calibrationNotApplied", { name: use.name, reason });
}
function calibrationNote(use, lang) {
  if (use.applied && use.adapted)
    return tr(lang, "calNoteAdapted", { name: use.name });
  if (use.applied)
    return tr(lang, "calNoteApplied", { name: use.name });
  const why = tr(lang, use.reason ? `why_${use.reason}` : "why_unknown");
  return tr(lang, "calNoteNotApplied", { name: use.name, why });
}
function renderCalibrationLine(target, use, docTypeLabel, lang) {
  target.hidden = !use;
  if (!use)
    return;
  target.textContent = calibrationLine(use, docTypeLabel, lang);
  target.dataset.applied = String(use.applied);
  target.dataset.reason = use.reason ?? "";
  target.dataset.adapted = String(use.adapted === true);
}
function renderChoice(select, profiles, chosenId, lang) {
  const none = el("option", "", tr(lang, "calibrationNone"));
  none.value = "";
  const options = (profiles ?? []).map((p) => {
    const option = el("option", "", p.stale ? `${p.name} (${tr(lang, "profileStaleShort")})` : p.name);
    option.value = p.id;
    return option;
  });
  select.replaceChildren(none, ...options);
  select.value = options.some((o) => o.value === chosenId) ? chosenId : "";
}

// src/web/verdict.ts
var MIN_MIXED_SHARE = 0.1;
var MAX_MIXED_SHARE = 0.9;
var MIN_HUMAN_PASSAGE_WORDS = 30;
function paintVerdict(target, key, label) {
  target.textContent = label;
  target.classList.add("verdict-badge");
  if (key)
    target.dataset.verdict = key;
  else
    delete target.dataset.verdict;
}
function showsPassages(verdictKey) {
  return verdictKey !== undefined && isAiVerdict(verdictKey);
}
var percent = (share, lang) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(share);
function formatShare(share, lang) {
  return percent(aiSharePercent(share) / 100, lang);
}
function shareText(verdictKey, share, lang) {
  return share !== undefined && showsPassages(verdictKey) ? formatShare(share, lang) : "—";
}
function notMixedNote(answer, lang) {
  if (answer.verdictKey !== "ai" && answer.verdictKey !== "likely_ai")
    return null;
  if (!answer.segments.some((s) => s.label === "human"))
    return null;
  return tr(lang, "notMixed", {
    human: percent((100 - aiSharePercent(answer.aiShare)) / 100, lang),
    min: percent(MIN_MIXED_SHARE, lang),
    max: percent(MAX_MIXED_SHARE, lang),
    words: MIN_HUMAN_PASSAGE_WORDS
  });
}

// src/web/batch.ts
var CSV_COLUMNS = [
  "file",
  "words",
  "score",
  "ai_share",
  "verdict",
  "verdict_key",
  "flagged",
  "doc_type",
  "error_code",
  "error_message",
  "calibration_applied",
  "calibration_reason",
  "calibration_adapted",
  "model_score"
];
var DATA_COLUMNS = 6;
function csvField(value) {
  let s = value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(s) && typeof value === "string")
    s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
function toCsv(rows) {
  const lines = [CSV_COLUMNS.join(",")];
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
      cal?.adapted ? cal.modelScore : undefined
    ];
    lines.push(cells.map(csvField).join(","));
  }
  return `${lines.join(`\r
`)}\r
`;
}
function cell(text, cls, label) {
  const td = document.createElement("td");
  td.textContent = text === undefined ? "" : String(text);
  if (cls)
    td.className = cls;
  if (label)
    td.dataset.label = label;
  return td;
}
function scoreCell(row, lang) {
  const td = cell(undefined, "num score", tr(lang, "colScore"));
  const value = el("span", "score-value");
  value.appendChild(el("span", "score-number", String(row.score)));
  const model = row.calibration?.adapted ? row.calibration.modelScore : undefined;
  if (model !== undefined) {
    value.appendChild(el("small", "model-score", tr(lang, "modelScoreShort", { score: model })));
    td.dataset.modelScore = String(model);
  }
  td.appendChild(value);
  return td;
}
function paintRow(tr_, row, lang) {
  const name = document.createElement("th");
  name.scope = "row";
  name.appendChild(el("span", "file-name", row.fileName));
  const calibration = row.calibration ? calibrationLine(row.calibration, row.docType ?? "", lang) : null;
  if (row.calibration) {
    const note = el("p", "cal-note", calibrationNote(row.calibration, lang));
    note.dataset.applied = String(row.calibration.applied);
    note.dataset.adapted = String(row.calibration.adapted);
    name.appendChild(note);
  }
  if (row.reasons && row.reasons.length > 0 || calibration) {
    const details = el("details", "reasons");
    const summary = el("summary");
    summary.textContent = tr(lang, "fileReasons");
    const list = el("ul");
    list.append(...(row.reasons ?? []).map((text) => {
      const li = el("li");
      li.textContent = text;
      return li;
    }));
    details.append(summary, list);
    if (calibration)
      details.appendChild(el("p", "hint calibration-line", calibration));
    if (calibration && row.measuredError)
      details.appendChild(el("p", "hint measured-error", row.measuredError));
    name.appendChild(details);
  }
  tr_.replaceChildren(name);
  tr_.className = row.error ? "row-error" : row.score === undefined ? "row-pending" : "row-done";
  if (row.error) {
    const td = cell(tr(lang, "fileError", { message: row.error.message }), "file-error");
    td.colSpan = DATA_COLUMNS;
    td.dataset.code = row.error.code;
    tr_.appendChild(td);
    return;
  }
  if (row.score === undefined) {
    const td = cell("…");
    td.colSpan = DATA_COLUMNS;
    tr_.appendChild(td);
    return;
  }
  const share = cell(shareText(row.verdictKey, row.aiShare, lang), "num", tr(lang, "colAiShare"));
  if (row.aiShare !== undefined)
    share.dataset.share = String(row.aiShare);
  const verdict = cell(undefined, undefined, tr(lang, "colVerdict"));
  const badge = el("span");
  paintVerdict(badge, row.verdictKey, row.verdict ?? "");
  verdict.appendChild(badge);
  tr_.append(cell(row.words, "num", tr(lang, "colWords")), scoreCell(row, lang), share, verdict, cell(row.flagged, "num", tr(lang, "colFlagged")), cell(row.docType, undefined, tr(lang, "colDocType")));
}
var shown = null;
function relabelBatch(lang) {
  const note = document.getElementById("batch-stale");
  if (!shown)
    return;
  for (const [index, row] of shown.rows) {
    const tr_ = shown.trs.get(index);
    if (tr_)
      paintRow(tr_, row, lang);
  }
  if (shown.status)
    document.getElementById("batch-status").textContent = tr(lang, shown.status);
  if (!note)
    return;
  note.hidden = shown.lang === lang;
  note.textContent = shown.lang === lang ? "" : tr(lang, "filesStaleLangNote", { language: tr(lang, `langName_${shown.lang}`) });
}
function verdictKeyOf(value) {
  return VERDICT_KEYS.includes(value) ? value : undefined;
}
function calibrationOf(value) {
  const v = value;
  if (!v || typeof v.name !== "string" || typeof v.applied !== "boolean")
    return;
  const use = { id: v.id ?? null, name: v.name, applied: v.applied, reason: v.reason ?? null, adapted: v.adapted === true };
  if (use.adapted && typeof v.modelScore === "number" && typeof v.adaptedScore === "number") {
    use.adaptedScore = v.adaptedScore;
    use.modelScore = v.modelScore;
  }
  return use;
}
async function runBatch(files, ctx) {
  const lang = ctx.lang();
  const section = document.getElementById("batch");
  const progress = document.getElementById("batch-progress");
  const count = document.getElementById("batch-count");
  const status = document.getElementById("batch-status");
  const tbody = document.getElementById("batch-rows");
  const rows = new Map;
  const trs = new Map;
  shown = { rows, trs, status: null, lang };
  relabelBatch(lang);
  let total = files.length;
  let done = 0;
  const setProgress = () => {
    progress.max = Math.max(total, 1);
    progress.value = done;
    count.textContent = `${done}/${total}`;
  };
  const upsert = (row) => {
    rows.set(row.index, row);
    let tr_ = trs.get(row.index);
    if (!tr_) {
      tr_ = document.createElement("tr");
      tr_.dataset.index = String(row.index);
      trs.set(row.index, tr_);
      tbody.appendChild(tr_);
    }
    paintRow(tr_, row, ctx.lang());
  };
  tbody.replaceChildren();
  status.textContent = "";
  section.hidden = false;
  setProgress();
  const res = await detectFiles(ctx.key(), lang, files, ctx.sensitivity(), ctx.calibration());
  let complete = false;
  for await (const msg of readNdjson(res.body)) {
    const index = Number(msg.index);
    const fileName = String(msg.fileName ?? files[index]?.name ?? "");
    if (typeof msg.total === "number")
      total = msg.total;
    if (msg.type === "progress") {
      upsert({ index, fileName });
      status.textContent = tr(ctx.lang(), "progressNow", { name: fileName });
    } else if (msg.type === "result") {
      done++;
      upsert({
        index,
        fileName,
        words: Number(msg.words),
        score: Number(msg.score),
        aiShare: typeof msg.aiShare === "number" ? msg.aiShare : undefined,
        verdict: String(msg.verdict ?? ""),
        verdictKey: verdictKeyOf(msg.verdictKey),
        flagged: Number(msg.flagged),
        docType: String(msg.docType ?? ""),
        reasons: Array.isArray(msg.bullets) ? msg.bullets.map((b) => String(b?.text ?? "")) : undefined,
        calibration: calibrationOf(msg.calibration),
        measuredError: typeof msg.measuredError?.text === "string" ? msg.measuredError.text : undefined
      });
    } else if (msg.type === "error") {
      done++;
      upsert({ index, fileName, error: { code: String(msg.code), message: String(msg.message ?? msg.code) } });
    } else if (msg.type === "complete") {
      complete = true;
      shown.status = "progressDone";
      status.textContent = tr(ctx.lang(), "progressDone");
    }
    setProgress();
  }
  if (!complete) {
    shown.status = "progressIncomplete";
    status.textContent = tr(ctx.lang(), "progressIncomplete");
  }
  return [...rows.values()].sort((a, b) => a.index - b.index);
}
function downloadCsv(csv, fileName = "detector-results.csv") {
  const url = URL.createObjectURL(new Blob(["\uFEFF", csv], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// src/web/files.ts
var FILE_NAME = /\.(txt|md|markdown|docx|pdf)$/i;
function splitFiles(files) {
  return { taken: files.filter((f) => FILE_NAME.test(f.name)), refused: files.filter((f) => !FILE_NAME.test(f.name)) };
}
function wireDrop(zone, input, onFiles) {
  input.addEventListener("change", () => onFiles([...input.files ?? []]));
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    zone.classList.add("dragging");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("dragging");
    onFiles([...e.dataTransfer?.files ?? []]);
  });
}

// src/web/other-writers-view.ts
function otherWritersText(mode, o, lang) {
  const vars = { mode: tr(lang, `mode_${mode}`), rate: formatRate(o.rate, lang), texts: new Intl.NumberFormat(lang).format(o.texts) };
  if (o.populations === 0 || o.texts === 0)
    return tr(lang, "otherWritersLineNone", vars);
  const line = o.most ? tr(lang, "otherWritersLine", {
    ...vars,
    label: o.most.label,
    most: formatRate(o.most.rate, lang),
    model: formatRate(o.most.modelRate, lang)
  }) : tr(lang, "otherWritersLineNoMost", vars);
  return o.raised ? line + tr(lang, "otherWritersRaised") : line;
}
function otherWritersBlock(language, lang) {
  const rows = SENSITIVITIES.flatMap((mode) => {
    const o = language.modes[mode].otherWriters;
    return o ? [{ mode, o }] : [];
  });
  if (!rows.length)
    return null;
  const box = el("div", "other-writers");
  const note = language.guard;
  const nf = new Intl.NumberFormat(lang);
  const head = note ? tr(lang, "otherWritersGuard", { references: nf.format(note.references), populations: nf.format(note.populations) }) : tr(lang, "otherWritersHead");
  box.appendChild(el("p", "other-writers-head", head));
  if (note?.made === "on_load")
    box.appendChild(el("p", "hint other-writers-on-load", tr(lang, "otherWritersOnLoad")));
  const list = el("ul", "other-writers-modes");
  for (const { mode, o } of rows) {
    const item = el("li", o.raised ? "raised" : "", otherWritersText(mode, o, lang));
    Object.assign(item.dataset, {
      mode,
      texts: String(o.texts),
      flagged: String(o.flagged),
      rate: String(o.rate),
      raised: String(o.raised)
    });
    if (o.most)
      Object.assign(item.dataset, { population: o.most.id, mostRate: String(o.most.rate), modelRate: String(o.most.modelRate) });
    list.appendChild(item);
  }
  box.append(list, el("p", "hint other-writers-help", tr(lang, "otherWritersHelp")));
  return box;
}

// src/web/profile-warnings.ts
function warningText(w, lang) {
  const nf = new Intl.NumberFormat(lang);
  switch (w.code) {
    case "mode_not_covered":
      return tr(lang, "warnModeNotCovered", { mode: tr(lang, `mode_${w.mode}`), texts: w.texts ?? 0, needed: w.needed ?? 0 });
    case "examples_rank_below_human":
      return tr(lang, "warn_examples_rank_below_human", {
        n: nf.format(w.aiTexts ?? 0),
        auroc: new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(w.auroc ?? 0)
      });
    case "examples_differ_in_form": {
      const word = { word: w.word ?? "" };
      return tr(lang, "warn_examples_differ_in_form", {
        form: tr(lang, `form_${w.form}`, word),
        ai: formatRate(w.ai ?? 0, lang),
        human: formatRate(w.human ?? 0, lang),
        check: tr(lang, `check_${w.form}`, word)
      });
    }
    case "mode_fell_back":
      return tr(lang, "warn_mode_fell_back", {
        mode: tr(lang, `mode_${w.mode}`),
        n: nf.format(w.aiTexts ?? 0),
        caught: nf.format(w.caught ?? 0),
        modelCaught: nf.format(w.modelCaught ?? 0)
      });
    case "labelling_conflict":
      return tr(lang, "warnLabellingConflict", { n: w.count ?? 0 });
    default:
      return tr(lang, `notAdapted_${w.reason}`, { n: w.aiTexts ?? 0, min: w.needed ?? 0 });
  }
}

// src/web/profile-view.ts
var SUMMARY_MODE = "balanced";
function adaptationText(language, warning, lang) {
  const a = language.adaptation;
  if (a) {
    const m = a.modes[SUMMARY_MODE];
    const vars = { n: a.aiTexts, caught: formatRate(m.catchRate, lang), model: formatRate(m.modelCatchRate, lang) };
    return { state: "adapted", text: tr(lang, "adaptedLine", vars) };
  }
  if (warning)
    return { state: "not-adapted", text: warningText(warning, lang) };
  const why = language.notAdapted;
  if (why && why.reason !== "no_ai_texts")
    return { state: "not-adapted", text: tr(lang, `notAdapted_${why.reason}`, { n: why.aiTexts, min: why.minAiTexts }) };
  return { state: "calibration-only", text: tr(lang, "notAdapted_no_ai_texts") };
}
function modeCells(m, lang, showScore, aiTexts) {
  const nf = new Intl.NumberFormat(lang, { maximumFractionDigits: showScore ? 0 : 2 });
  const threshold = showScore && m.thresholdScore != null ? m.thresholdScore : m.thresholdLogit;
  const flagged = tr(lang, "ownFlagged", { k: nf.format(m.flagged), n: nf.format(m.texts), rate: formatRate(m.rate, lang) });
  const cells = [
    el("td", "num threshold", nf.format(threshold)),
    el("td", "num flagged", flagged),
    el("td", "num bound", formatRate(m.upperBound, lang))
  ];
  const labels = [showScore ? "colThreshold" : "colThresholdLogit", "colOwnFlagged", "colUpperBound"];
  cells[1].dataset.flagged = String(m.flagged);
  if (m.mixed) {
    cells[1].dataset.mixed = String(m.mixed);
    cells[1].appendChild(el("span", "own-mixed", tr(lang, "ownMixed", { m: nf.format(m.mixed) })));
  }
  cells[1].dataset.texts = String(m.texts);
  cells[2].dataset.bound = String(m.upperBound);
  if ("caught" in m) {
    const caught = el("td", "num caught", tr(lang, "aiCaught", {
      rate: formatRate(m.catchRate, lang),
      k: nf.format(m.caught),
      n: nf.format(aiTexts),
      model: formatRate(m.modelCatchRate, lang)
    }));
    caught.dataset.caught = String(m.caught);
    caught.dataset.modelCaught = String(m.modelCaught);
    cells.push(caught);
    labels.push("colAiCaught");
  }
  cells.forEach((td, i) => {
    td.dataset.label = tr(lang, labels[i]);
  });
  return cells;
}
function modeRow(mode, m, lang, showScore, columns, aiTexts) {
  const row = el("tr");
  row.dataset.mode = mode;
  const head = el("th", "", tr(lang, `mode_${mode}`));
  head.scope = "row";
  row.appendChild(head);
  if ("fallback" in m && m.fallback) {
    const nf = new Intl.NumberFormat(lang);
    const td = el("td", "mode-fell-back", tr(lang, "modeFellBack", {
      caught: `${nf.format(m.caught)}/${nf.format(aiTexts)}`,
      model: `${nf.format(m.modelCaught)}/${nf.format(aiTexts)}`
    }));
    td.colSpan = columns - 1;
    td.dataset.fallback = m.fallback;
    row.appendChild(td);
    return row;
  }
  if (m.thresholdLogit === null) {
    const td = el("td", "mode-default", tr(lang, "modeDefault"));
    td.colSpan = columns - 1;
    row.appendChild(td);
    return row;
  }
  row.append(...modeCells(m, lang, showScore, aiTexts));
  return row;
}
function languageLine(code, language, lang) {
  const nf = new Intl.NumberFormat(lang);
  const vars = { lang: tr(lang, `lang_${code}`), n: nf.format(language.texts) };
  const words = language.words;
  if (words === null || words.max === 0)
    return tr(lang, "profileLangNoLength", vars);
  if (words.max === null)
    return tr(lang, "profileLangOpen", { ...vars, min: nf.format(words.min) });
  return tr(lang, "profileLang", { ...vars, min: nf.format(words.min), max: nf.format(words.max) });
}
var BLOCK_WARNINGS = new Set(["mode_not_covered", "not_adapted"]);
function warningNode(text, w, cls) {
  const node = el("p", w ? `${cls} profile-warning` : cls, text);
  if (w) {
    node.dataset.code = w.code;
    if (w.mode)
      node.dataset.mode = w.mode;
  }
  return node;
}
function languageBlock(code, language, warnings, lang) {
  const block = el("div", "profile-lang");
  block.dataset.lang = code;
  block.appendChild(el("p", "profile-lang-line", languageLine(code, language, lang)));
  for (const w of warnings.filter((x) => x.code === "mode_not_covered"))
    block.appendChild(warningNode(warningText(w, lang), w, "profile-mode-warning"));
  const notAdapted = warnings.find((x) => x.code === "not_adapted");
  const adaptation = adaptationText(language, notAdapted, lang);
  const line = warningNode(adaptation.text, adaptation.state === "not-adapted" ? notAdapted : undefined, "profile-adaptation");
  line.dataset.state = adaptation.state;
  block.dataset.adapted = String(adaptation.state === "adapted");
  block.appendChild(line);
  for (const w of warnings.filter((x) => !BLOCK_WARNINGS.has(x.code)))
    block.appendChild(warningNode(warningText(w, lang), w, "profile-examples-warning"));
  const adapted = language.adaptation;
  const modes = adapted ? adapted.modes : language.modes;
  const showScore = SENSITIVITIES.every((s) => modes[s].thresholdLogit === null || modes[s].thresholdScore != null);
  const heads = ["colMode", showScore ? "colThreshold" : "colThresholdLogit", "colOwnFlagged", "colUpperBound"];
  if (adapted)
    heads.push("colAiCaught");
  const table = el("table", "profile-modes");
  const head = el("tr");
  for (const key of heads) {
    const th = el("th", key === "colMode" ? "" : "num", tr(lang, key));
    th.scope = "col";
    head.appendChild(th);
  }
  const thead = el("thead");
  thead.appendChild(head);
  const tbody = el("tbody");
  tbody.append(...SENSITIVITIES.map((s) => modeRow(s, modes[s], lang, showScore, heads.length, adapted?.aiTexts ?? 0)));
  table.append(thead, tbody);
  const wrap = el("div", "table-wrap");
  wrap.appendChild(table);
  block.appendChild(wrap);
  if (adapted)
    block.appendChild(el("p", "hint adapted-help", tr(lang, "adaptedTableHelp")));
  if (!showScore)
    block.appendChild(el("p", "hint threshold-help", tr(lang, "thresholdLogitHelp")));
  const others = otherWritersBlock(language, lang);
  if (others)
    block.appendChild(others);
  return block;
}
function profileCard(profile, chosen, lang, actions) {
  const card = el("article", chosen ? "profile chosen" : "profile");
  card.dataset.id = profile.id;
  card.appendChild(el("h4", "profile-name", profile.name));
  const date = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(profile.createdAt));
  card.appendChild(el("p", "hint", tr(lang, "profileMeta", { date, model: profile.modelVersion })));
  if (profile.stale)
    card.appendChild(el("p", "profile-stale", tr(lang, "profileStale")));
  const { human, ai } = profile.duplicates;
  if (human + ai > 0) {
    const dup = el("p", "hint profile-duplicates", tr(lang, "profileDuplicates", { human, ai }));
    dup.dataset.human = String(human);
    dup.dataset.ai = String(ai);
    card.appendChild(dup);
  }
  for (const w of profile.warnings.filter((x) => x.code === "labelling_conflict"))
    card.appendChild(warningNode(warningText(w, lang), w, "profile-conflict"));
  for (const code of MODEL_LANGS) {
    const language = profile.languages[code];
    const warnings = profile.warnings.filter((w) => w.language === code);
    if (language)
      card.appendChild(languageBlock(code, language, warnings, lang));
  }
  const buttons = el("div", "profile-actions");
  const use = el("button", chosen ? "use" : "use primary", tr(lang, chosen ? "inUse" : "useProfile"));
  use.type = "button";
  use.setAttribute("aria-pressed", String(chosen));
  use.addEventListener("click", () => actions.use(profile));
  const remove = el("button", "remove", tr(lang, "deleteProfile"));
  remove.type = "button";
  remove.addEventListener("click", () => actions.remove(profile));
  buttons.append(use, remove);
  card.appendChild(buttons);
  return card;
}
function renderProfiles(list, profiles, chosenId, lang, actions) {
  if (profiles === null) {
    list.replaceChildren(el("p", "hint", tr(lang, "profilesNeedKey")));
    return;
  }
  if (profiles.length === 0) {
    list.replaceChildren(el("p", "hint", tr(lang, "profilesEmpty")));
    return;
  }
  list.replaceChildren(...profiles.map((p) => profileCard(p, p.id === chosenId, lang, actions)));
}

// src/web/calibration-tab.ts
var CHOICE_STORAGE = "playground.calibration";
function wireCalibration(ctx) {
  const select = byId("calibration");
  const nameInput = byId("calibration-name");
  const fileInput = byId("calibration-files");
  const aiInput = byId("calibration-ai-files");
  const createButton = byId("create-profile");
  const errorBox = byId("calibration-error");
  const status = byId("calibration-status");
  let profiles = null;
  let files = [];
  let refused = [];
  let aiFiles = [];
  let aiRefused = [];
  let chosenId = sessionStorage.getItem(CHOICE_STORAGE) ?? "";
  let busy = false;
  let created = null;
  const showError = (err) => {
    const lang = ctx.lang();
    errorBox.textContent = describeCalibrationError(err, lang) ?? describeError(err, lang);
    errorBox.dataset.code = err instanceof ApiError ? err.code : "client_error";
    errorBox.hidden = false;
  };
  const clearError = () => {
    errorBox.hidden = true;
    errorBox.textContent = "";
    delete errorBox.dataset.code;
  };
  const choose = (id) => {
    chosenId = id;
    sessionStorage.setItem(CHOICE_STORAGE, id);
    draw();
    ctx.onChoice();
  };
  const actions = {
    use: (p) => choose(p.id),
    remove: async (p) => {
      if (!window.confirm(tr(ctx.lang(), "deleteConfirm", { name: p.name })))
        return;
      clearError();
      try {
        await deleteProfile(ctx.key(), ctx.lang(), p.id);
        profiles = (profiles ?? []).filter((q) => q.id !== p.id);
        if (chosenId === p.id)
          choose("");
        else
          draw();
      } catch (err) {
        showError(err);
      }
    }
  };
  function drawPicker(prefix, taken, left) {
    const lang = ctx.lang();
    byId(`${prefix}-summary`).textContent = taken.length ? tr(lang, "filesChosen", { n: taken.length }) : "";
    const box = byId(`${prefix}-refused`);
    box.textContent = left.length ? tr(lang, "filesRefused", { names: left.map((f) => f.name).join(", ") }) : "";
    box.hidden = left.length === 0;
  }
  function drawFiles() {
    const lang = ctx.lang();
    byId("calibration-needs").textContent = tr(lang, "calibrationNeeds", { min: MIN_PROFILE_TEXTS, words: MIN_WORDS });
    byId("calibration-ai-help").textContent = tr(lang, "calibrationAiHelp", { min: MIN_AI_TEXTS });
    drawPicker("calibration", files, refused);
    drawPicker("calibration-ai", aiFiles, aiRefused);
  }
  function drawStatus() {
    const lang = ctx.lang();
    if (!created) {
      status.textContent = "";
      return;
    }
    const parts = [tr(lang, "profileCreated", { name: created.name })];
    const named = created.skippedFiles ?? [];
    if (named.length > 0) {
      const list = named.map((f) => tr(lang, "skippedFile", { name: f.fileName, message: f.message.replace(/\.\s*$/, "") })).join("; ");
      parts.push(tr(lang, "profileSkippedNamed", { n: named.length, list }));
    } else if ((created.skipped ?? 0) > 0)
      parts.push(tr(lang, "profileSkipped", { n: created.skipped }));
    if (created.warnings.length > 0)
      parts.push(tr(lang, "profileWarningsBelow", { n: created.warnings.length }));
    status.textContent = parts.join(" ");
  }
  function draw() {
    const lang = ctx.lang();
    renderChoice(select, profiles, chosenId, lang);
    if (profiles !== null && select.value !== chosenId) {
      chosenId = select.value;
      sessionStorage.setItem(CHOICE_STORAGE, chosenId);
    }
    renderProfiles(byId("profiles"), profiles, chosenId, lang, actions);
    createButton.textContent = tr(lang, busy ? "creatingProfile" : "createProfile");
    drawFiles();
    drawStatus();
  }
  async function refresh() {
    const key = ctx.key();
    if (!key) {
      profiles = null;
      draw();
      return;
    }
    try {
      const list = await listProfiles(key, ctx.lang());
      if (ctx.key() !== key)
        return;
      profiles = list;
      clearError();
    } catch (err) {
      profiles = null;
      showError(err);
    }
    draw();
  }
  async function create(e) {
    e.preventDefault();
    if (busy)
      return;
    clearError();
    created = null;
    drawStatus();
    const lang = ctx.lang();
    const name = nameInput.value.trim();
    if (!name) {
      showError(new ApiError(0, "no_name", tr(lang, "errCalibrationNoName"), new Headers));
      nameInput.focus();
      return;
    }
    if (files.length === 0)
      return showError(new ApiError(0, "no_files", tr(lang, "errNoFiles"), new Headers));
    busy = true;
    createButton.disabled = true;
    draw();
    try {
      const profile = await createProfile(ctx.key(), lang, name, files, aiFiles);
      profiles = [profile, ...(profiles ?? []).filter((p) => p.id !== profile.id)];
      const { skipped, skippedFiles, warnings } = profile;
      created = { name: profile.name, skipped, skippedFiles, warnings };
      nameInput.value = "";
      fileInput.value = "";
      aiInput.value = "";
      files = [];
      refused = [];
      aiFiles = [];
      aiRefused = [];
    } catch (err) {
      showError(err);
    } finally {
      busy = false;
      createButton.disabled = false;
      draw();
      ctx.onCharged();
    }
  }
  wireDrop(byId("calibration-drop"), fileInput, (chosen) => {
    ({ taken: files, refused } = splitFiles(chosen));
    drawFiles();
  });
  wireDrop(byId("calibration-ai-drop"), aiInput, (chosen) => {
    ({ taken: aiFiles, refused: aiRefused } = splitFiles(chosen));
    drawFiles();
  });
  byId("calibration-form").addEventListener("submit", create);
  select.addEventListener("change", () => choose(select.value));
  return { chosen: () => chosenId, refresh, applyLang: draw };
}

// src/web/annotated.ts
var HEAT_SCALE = ["0–19", "20–39", "40–59", "60–79", "80–100"];
function zonesOf(segments, length) {
  const zones = [];
  let cursor = 0;
  for (const s of [...segments].filter((s) => s.label === "ai").sort((a, b) => a.start - b.start)) {
    const start = Math.max(s.start, cursor);
    const end = Math.min(s.end, length);
    if (end <= start)
      continue;
    if (start > cursor)
      zones.push({ start: cursor, end: start });
    zones.push({ start, end, score: s.score });
    cursor = end;
  }
  if (cursor < length)
    zones.push({ start: cursor, end: length });
  return zones;
}
function flagsOf(annotations, length) {
  const flags = [];
  let cursor = 0;
  [...annotations].sort((a, b) => a.start - b.start).forEach((ann, index) => {
    const start = Math.max(ann.start, cursor);
    const end = Math.min(ann.end, length);
    if (end <= start)
      return;
    flags.push({ start, end, index, dims: ann.dims });
    cursor = end;
  });
  return flags;
}
function flagMark(flag, first, lang, fill) {
  if (!first) {
    const cont = el("mark", "flag-cont");
    fill(cont);
    return cont;
  }
  const mark = el("mark", "flag");
  fill(mark);
  mark.tabIndex = 0;
  mark.dataset.dims = flag.dims.map((d) => d.id).join(" ");
  const tip = el("span", "tip", tr(lang, "flaggedBy", { dims: flag.dims.map((d) => d.label).join(", ") }));
  tip.id = `flag-tip-${flag.index}`;
  tip.setAttribute("role", "tooltip");
  mark.setAttribute("aria-describedby", tip.id);
  mark.appendChild(tip);
  for (const type of ["blur", "mouseleave"])
    mark.addEventListener(type, () => mark.classList.remove("quiet"));
  return mark;
}
function passageBand(zone, lang) {
  const band = el("span", "seg-ai");
  band.dataset.start = String(zone.start);
  band.dataset.end = String(zone.end);
  band.dataset.score = String(zone.score);
  const tag = el("span", "seg-tag", tr(lang, "aiPassageTag"));
  tag.title = tr(lang, "aiPassageTitle", { score: zone.score });
  band.appendChild(tag);
  return { band, close: () => band.appendChild(el("span", "sr-only", tr(lang, "aiPassageEnd"))) };
}
function renderAnnotated(container, text, result, lang) {
  container.replaceChildren();
  const pieces = [];
  const addText = (parent, start, end) => {
    if (end <= start)
      return;
    const node = document.createTextNode(text.slice(start, end));
    parent.appendChild(node);
    pieces.push({ node, start });
  };
  const flags = flagsOf(result.textAnnotations, text.length);
  const started = new Set;
  for (const zone of zonesOf(showsPassages(result.verdictKey) ? result.segments : [], text.length)) {
    const shaded = zone.score === undefined ? null : passageBand(zone, lang);
    const parent = shaded?.band ?? container;
    let cursor = zone.start;
    for (const flag of flags) {
      const start = Math.max(flag.start, zone.start);
      const end = Math.min(flag.end, zone.end);
      if (end <= start)
        continue;
      addText(parent, cursor, start);
      parent.appendChild(flagMark(flag, !started.has(flag.index), lang, (mark) => addText(mark, start, end)));
      started.add(flag.index);
      cursor = end;
    }
    addText(parent, cursor, zone.end);
    if (shaded) {
      shaded.close();
      container.appendChild(shaded.band);
    }
  }
  return pieces;
}
function renderLegend(list, result, lang) {
  list.replaceChildren();
  if (showsPassages(result.verdictKey) && result.segments.some((s) => s.label === "ai")) {
    const item = el("li");
    const sample = el("span", "swatch seg-ai");
    sample.append(el("span", "seg-tag", tr(lang, "aiPassageTag")), "Aa");
    item.append(sample, " ", tr(lang, "legendAiPassage"));
    list.appendChild(item);
  }
  if (result.textAnnotations.length > 0) {
    const item = el("li");
    item.append(el("span", "swatch flag", "Aa"), " ", tr(lang, "legendFlag"));
    list.appendChild(item);
  }
  if (result.sentenceScores.length > 0) {
    const item = el("li", "heat-legend");
    const scale = el("span", "heat-scale");
    for (let b = 0;b < HEAT_SCALE.length; b++) {
      const swatch = el("span", `swatch heat-${b}`, HEAT_SCALE[b]);
      scale.appendChild(swatch);
    }
    item.append(tr(lang, "legendHeat"), " ", scale);
    list.appendChild(item);
  }
  list.hidden = list.childElementCount === 0;
}
function rangeFor(pieces, start, end) {
  const locate = (offset, preferNext) => {
    for (const p of pieces) {
      const len = p.node.data.length;
      if (offset < p.start + len || !preferNext && offset === p.start + len) {
        if (offset >= p.start)
          return { node: p.node, at: offset - p.start };
      }
    }
    return null;
  };
  const a = locate(start, true);
  const b = locate(end, false);
  if (!a || !b)
    return null;
  const range = document.createRange();
  range.setStart(a.node, a.at);
  range.setEnd(b.node, b.at);
  return range;
}

// src/web/result.ts
var PASSAGE_HIGHLIGHT = "passage";
var HEAT_BANDS = 5;
function heatBand(score) {
  return Math.max(0, Math.min(HEAT_BANDS - 1, Math.floor(score / (100 / HEAT_BANDS))));
}
var GAUGE_BANDS = [
  { min: 70, cls: "high" },
  { min: 40, cls: "mid" },
  { min: 0, cls: "low" }
];
function gaugeBand(score, verdictKey) {
  if (verdictKey === "inconclusive")
    return "none";
  if (verdictKey === "mixed")
    return "mixed";
  if (!showsPassages(verdictKey))
    return "low";
  return GAUGE_BANDS.find((b) => score >= b.min).cls;
}
function modelScoreText(calibration, lang) {
  return calibration?.adapted && calibration.modelScore !== undefined ? tr(lang, "modelScore", { score: calibration.modelScore }) : null;
}
function renderGauge(result, lang) {
  const { score, verdictKey } = result;
  const clamped = Math.max(0, Math.min(100, Math.round(score)));
  const gauge = byId("gauge");
  const band = gaugeBand(clamped, verdictKey);
  const label = tr(lang, band === "none" ? "gaugeNoVerdict" : band === "mixed" ? "gaugeMixed" : "gaugeLabel");
  byId("gauge-label").textContent = label;
  const model = modelScoreText(result.calibration, lang);
  const modelLine = byId("model-score");
  modelLine.textContent = model ?? "";
  modelLine.hidden = model === null;
  gauge.setAttribute("aria-valuenow", String(clamped));
  const said = [`${clamped}/100`, ...band === "none" || band === "mixed" ? [label] : [], ...model ? [model] : []];
  gauge.setAttribute("aria-valuetext", said.join(", "));
  gauge.dataset.band = band;
  byId("gauge-arc").setAttribute("stroke-dasharray", `${clamped} 100`);
  byId("gauge-score").textContent = String(clamped);
}
function dimensionNote(dim, result, lang) {
  const bullet = result.bullets.find((b) => b.id === dim.id);
  if (bullet)
    return bullet.text;
  const flagged = result.textAnnotations.filter((a) => a.dims.some((d) => d.id === dim.id)).length;
  return flagged > 0 ? tr(lang, "dimFlaggedIn", { n: flagged }) : tr(lang, "dimWholeText");
}
function renderDimensions(result, lang) {
  byId("active-dims").textContent = tr(lang, "activeDims", { a: result.activeDimensions, t: result.totalDimensions });
  const list = byId("dimensions");
  list.replaceChildren();
  const rank = (d) => d.detected ? 0 : d.enabled ? 1 : 2;
  const ordered = [...result.dimensions].sort((a, b) => rank(a) - rank(b));
  for (const dim of ordered) {
    const item = el("li", dim.detected ? "dim on" : dim.enabled ? "dim off" : "dim unavailable");
    item.dataset.dim = dim.id;
    item.append(el("span", "dim-icon", dim.detected ? "✔" : dim.enabled ? "–" : "∅"), el("span", "dim-label", dim.label));
    const state = dim.detected ? "detected" : dim.enabled ? "notDetected" : "unavailable";
    const stateEl = el("span", "dim-state", tr(lang, state));
    item.append(stateEl);
    if (!dim.enabled)
      stateEl.title = tr(lang, "unavailableHelp");
    if (dim.detected)
      item.append(el("span", "dim-note", dimensionNote(dim, result, lang)));
    list.appendChild(item);
  }
  const unused = byId("dims-unused");
  unused.textContent = `∅ ${tr(lang, "unavailable")}: ${tr(lang, "unavailableHelp")}`;
  unused.hidden = !result.dimensions.some((d) => !d.enabled);
}
function showPassage(range) {
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const rect = range.getBoundingClientRect();
  window.scrollTo({ top: window.scrollY + rect.top - window.innerHeight / 3, behavior: reduced ? "auto" : "smooth" });
  if ("highlights" in CSS) {
    const passage = new Highlight(range);
    passage.priority = 1;
    CSS.highlights.set(PASSAGE_HIGHLIGHT, passage);
  } else {
    const sel = window.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
  }
}
function exampleIsCut(text, bullet, sentences) {
  const within = sentences.find((s) => s.start < bullet.end && bullet.end < s.end);
  return within !== undefined && text.slice(bullet.end, within.end).trim() !== "";
}
function renderBullets(source, result, pieces, lang) {
  const list = byId("bullets");
  list.replaceChildren();
  if (result.bullets.length === 0)
    list.appendChild(el("li", "empty", tr(lang, "noBullets")));
  for (const bullet of result.bullets) {
    const item = el("li", "bullet");
    item.dataset.id = bullet.id;
    item.dataset.leaning = bullet.leaning;
    const text = el("p", "bullet-text");
    text.append(el("span", "leaning", tr(lang, `leaning_${bullet.leaning}`)), " ", bullet.text);
    item.appendChild(text);
    const button = el("button", "passage");
    button.type = "button";
    const cut = exampleIsCut(source, bullet, result.sentenceScores);
    button.append(el("span", "sr-only", `${tr(lang, "showPassage")}: `), el("q", "", cut ? `${bullet.example}…` : bullet.example));
    button.addEventListener("click", () => {
      const range = rangeFor(pieces, bullet.start, bullet.end);
      if (range)
        showPassage(range);
    });
    item.appendChild(button);
    list.appendChild(item);
  }
}
function renderHeat(pieces, result) {
  if (!("highlights" in CSS))
    return;
  const bands = Array.from({ length: HEAT_BANDS }, () => []);
  for (const s of result.sentenceScores) {
    const range = rangeFor(pieces, s.start, s.end);
    if (range)
      bands[heatBand(s.score)].push(range);
  }
  bands.forEach((ranges, b) => CSS.highlights.set(`heat-${b}`, new Highlight(...ranges)));
}
function wireTooltipDismiss() {
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape")
      return;
    for (const mark of document.querySelectorAll("mark.flag"))
      mark.classList.add("quiet");
  });
}
function renderResult(text, result, headers, lang, answerLang = lang) {
  for (const id of ["verdict", "doc-type", "measured-error", "bullets"])
    byId(id).lang = answerLang;
  if ("highlights" in CSS)
    CSS.highlights.delete(PASSAGE_HIGHLIGHT);
  renderGauge(result, lang);
  paintVerdict(byId("verdict"), result.verdictKey, result.verdict);
  byId("verdict-hint").textContent = tr(lang, `verdictHint_${result.verdictKey}`);
  const notMixed = result.calibration?.note ?? notMixedNote(result, lang);
  byId("mixed-note").textContent = notMixed ?? "";
  byId("mixed-note").hidden = notMixed === null;
  const measured = byId("measured-error");
  measured.textContent = result.measuredError.text;
  measured.hidden = result.verdictKey === "inconclusive";
  byId("ai-share").textContent = shareText(result.verdictKey, result.aiShare, lang);
  byId("doc-type").textContent = result.docTypeLabel;
  renderCalibrationLine(byId("calibration-line"), result.calibration, result.docTypeLabel, lang);
  const nf = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
  byId("ms-cost").textContent = tr(lang, "msUnit", { n: nf.format(result.ms_cost) });
  const remaining = headers.get("X-RateLimit-Remaining") ?? result.rate_remaining;
  byId("words-remaining").textContent = remaining == null ? "—" : nf.format(Number(remaining));
  const annotated = byId("annotated");
  const pieces = renderAnnotated(annotated, text, result, lang);
  if (result.textAnnotations.length === 0)
    annotated.appendChild(el("p", "hint", tr(lang, "noFlags")));
  renderHeat(pieces, result);
  renderLegend(byId("legend"), result, lang);
  renderDimensions(result, lang);
  renderBullets(text, result, pieces, lang);
  byId("result").hidden = false;
}
// src/web/app.ts
var KEY_STORAGE = "playground.apiKey";
var LANG_STORAGE = "playground.lang";
var $ = (id) => document.getElementById(id);
var keyInput = $("api-key");
var sensitivity2 = $("sensitivity");
var textArea = $("text");
var analyzeButton = $("analyze");
var fileInput = $("files");
var filesButton = $("analyze-files");
var csvButton = $("download-csv");
var lang = initialLang();
var lastResult = null;
var chosenFiles = [];
var refusedFiles = [];
var batchRows = [];
var calibration = wireCalibration({
  key: () => keyInput.value.trim(),
  lang: () => lang,
  onChoice: () => markStale(),
  onCharged: () => void refreshUsage()
});
var busy = false;
function initialLang() {
  const saved = localStorage.getItem(LANG_STORAGE);
  if (saved === "en" || saved === "es")
    return saved;
  return navigator.language.toLowerCase().startsWith("es") ? "es" : "en";
}
function showError(boxId, err) {
  const box = $(boxId);
  box.textContent = describeError(err, lang);
  box.dataset.code = err instanceof ApiError ? err.code : "client_error";
  box.hidden = false;
  if (err instanceof ApiError && err.status === 401)
    keyInput.focus();
}
async function refreshUsage() {
  const line = $("usage-line");
  const key = keyInput.value.trim();
  if (!key) {
    line.hidden = true;
    return;
  }
  try {
    const usage = await fetchUsage(key, lang);
    if (keyInput.value.trim() !== key)
      return;
    line.textContent = usageText(usage, lang);
    line.dataset.remaining = String(usage.words.remaining);
    line.hidden = false;
  } catch {
    line.hidden = true;
  }
}
function clearError(boxId) {
  const box = $(boxId);
  box.hidden = true;
  box.textContent = "";
}
function updateWordCount() {
  const n = countWords(textArea.value);
  const out = $("word-count");
  out.textContent = n >= MIN_WORDS ? tr(lang, "wordsCount", { n }) : tr(lang, "wordsNeeded", { n, k: MIN_WORDS - n, min: MIN_WORDS });
  out.dataset.words = String(n);
  analyzeButton.disabled = busy || n < MIN_WORDS;
}
function chooseFiles(files) {
  ({ taken: chosenFiles, refused: refusedFiles } = splitFiles(files));
  renderFileList();
}
var STALE_NOTES = {
  "": null,
  text: "staleNote",
  settings: "staleSettingsNote",
  "text-settings": "staleTextSettingsNote",
  lang: "staleLangNote"
};
function markStale() {
  const text = lastResult !== null && textArea.value !== lastResult.text;
  const settings = lastResult !== null && (sensitivity2.value !== lastResult.sensitivity || calibration.chosen() !== lastResult.calibration);
  const otherLang = lastResult !== null && lastResult.lang !== lang;
  const reason = text && settings ? "text-settings" : text ? "text" : settings ? "settings" : otherLang ? "lang" : "";
  const note = $("stale-note");
  $("result").classList.toggle("stale", reason !== "");
  note.hidden = reason === "";
  note.dataset.reason = reason;
  const key = STALE_NOTES[reason];
  note.textContent = key === "staleLangNote" ? tr(lang, key, { language: tr(lang, `langName_${lastResult.lang}`) }) : key ? tr(lang, key) : "";
}
function renderFileList() {
  const list = $("file-list");
  list.replaceChildren(...chosenFiles.map((f) => {
    const li = document.createElement("li");
    li.textContent = f.name;
    return li;
  }));
  $("file-summary").textContent = chosenFiles.length ? tr(lang, "filesChosen", { n: chosenFiles.length }) : "";
  const refused = $("file-refused");
  refused.textContent = refusedFiles.length ? tr(lang, "filesRefused", { names: refusedFiles.map((f) => f.name).join(", ") }) : "";
  refused.hidden = refusedFiles.length === 0;
}
function applyLang(next) {
  lang = next;
  localStorage.setItem(LANG_STORAGE, lang);
  document.documentElement.lang = lang;
  document.title = STRINGS[lang].title;
  for (const node of document.querySelectorAll("[data-i18n]")) {
    node.textContent = tr(lang, node.dataset.i18n);
  }
  $(`lang-${lang}`).checked = true;
  $("main").setAttribute("aria-label", STRINGS[lang].title);
  document.querySelector('[role="tablist"]').setAttribute("aria-label", `${tr(lang, "tabText")} / ${tr(lang, "tabFiles")} / ${tr(lang, "tabCalibration")}`);
  updateWordCount();
  renderFileList();
  calibration.applyLang();
  refreshUsage();
  if (lastResult)
    renderResult(lastResult.text, lastResult.data, lastResult.headers, lang, lastResult.lang);
  markStale();
  relabelBatch(lang);
}
function selectTab(tab, focus) {
  for (const t of document.querySelectorAll('[role="tab"]')) {
    const on = t === tab;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
  if (tab.id === "tab-calibration")
    calibration.refresh();
  if (focus)
    tab.focus();
}
function wireTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  for (const [i, tab] of tabs.entries()) {
    tab.addEventListener("click", () => selectTab(tab, false));
    tab.addEventListener("keydown", (e) => {
      const moves = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 };
      if (!(e.key in moves))
        return;
      e.preventDefault();
      selectTab(tabs[(moves[e.key] + tabs.length) % tabs.length], true);
    });
  }
}
async function analyzeText(e) {
  e.preventDefault();
  if (countWords(textArea.value) < MIN_WORDS || busy)
    return;
  clearError("text-error");
  busy = true;
  analyzeButton.textContent = tr(lang, "analyzing");
  updateWordCount();
  try {
    const text = textArea.value;
    const profile = calibration.chosen();
    const { data, headers } = await detectText(keyInput.value.trim(), lang, text, sensitivity2.value, profile);
    lastResult = { text, sensitivity: sensitivity2.value, calibration: profile, lang, data, headers };
    renderResult(text, data, headers, lang);
    markStale();
    $("result-heading").focus({ preventScroll: true });
  } catch (err) {
    $("result").hidden = true;
    lastResult = null;
    markStale();
    showError("text-error", err);
  } finally {
    busy = false;
    analyzeButton.textContent = tr(lang, "analyze");
    updateWordCount();
    refreshUsage();
  }
}
async function analyzeFiles(e) {
  e.preventDefault();
  clearError("files-error");
  if (chosenFiles.length === 0)
    return showError("files-error", new ApiError(0, "no_files", tr(lang, "errNoFiles"), new Headers));
  filesButton.disabled = true;
  csvButton.disabled = true;
  try {
    batchRows = await runBatch(chosenFiles, {
      key: () => keyInput.value.trim(),
      lang: () => lang,
      sensitivity: () => sensitivity2.value,
      calibration: () => calibration.chosen()
    });
    csvButton.disabled = batchRows.length === 0;
  } catch (err) {
    showError("files-error", err);
  } finally {
    filesButton.disabled = false;
    refreshUsage();
  }
}
function wireFiles() {
  wireDrop($("drop-zone"), fileInput, chooseFiles);
  for (const type of ["dragover", "drop"])
    window.addEventListener(type, (e) => e.preventDefault());
  $("files-form").addEventListener("submit", analyzeFiles);
  csvButton.addEventListener("click", () => downloadCsv(toCsv(batchRows)));
}
function main() {
  keyInput.value = sessionStorage.getItem(KEY_STORAGE) ?? "";
  keyInput.addEventListener("input", () => sessionStorage.setItem(KEY_STORAGE, keyInput.value));
  keyInput.addEventListener("change", () => {
    refreshUsage();
    calibration.refresh();
  });
  textArea.addEventListener("input", () => {
    updateWordCount();
    markStale();
  });
  sensitivity2.addEventListener("change", markStale);
  $("text-form").addEventListener("submit", analyzeText);
  for (const radio of document.querySelectorAll('input[name="lang"]')) {
    radio.addEventListener("change", () => radio.checked && applyLang(radio.value));
  }
  $("result-heading").tabIndex = -1;
  wireTabs();
  wireFiles();
  wireTooltipDismiss();
  applyLang(lang);
  calibration.refresh();
}
main();
