/** English catalogue: every user-facing string. Sections are plain nested objects; es.ts has the same keys. */
export const en = {
  errors: {
    missing_api_key: 'Missing API key: send it in the X-API-Key header (or as Authorization: Bearer <key>).',
    invalid_api_key: 'The API key is unknown or has been revoked.',
    invalid_json: 'The request body is not valid JSON.',
    invalid_request: 'The request is not valid: {detail}.',
    invalid_idempotency_key: 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice).',
    idempotency_key_reused: 'This Idempotency-Key was already used with a different request body. Use a new key for a new request.',
    idempotency_request_in_progress: 'A request with this Idempotency-Key is still running. Try again in a moment to get its answer.',
    text_required: 'The field "text" is required and must be a string.',
    text_too_short: 'The text is too short: at least {min} words are needed, {count} found.',
    invalid_sensitivity: 'The field "sensitivity" must be one of: conservative, balanced, aggressive.',
    payload_too_large: 'The request body is larger than the limit of {limit} bytes.',
    unsupported_media_type: 'Unsupported Content-Type: send application/json (one text) or multipart/form-data (files).',
    quota_exceeded:
      'Not enough words left this month: this request needs {words} words and {remaining} of {limit} remain. The quota resets at {reset}.',
    trial_calls_exhausted: 'This trial key has used all of its {limit} calls. Ask for a key on a paid or free plan.',
    exceeds_plan:
      'This request needs {words} words, more than the {limit} words a month of the {plan} plan: it can never fit. Split the text or the batch, or use a larger plan.',
    rate_limited: 'Too many requests: this key may send {limit} requests per {seconds} s. Try again in {retryAfter} s.',
    not_found: 'Nothing here: {method} {path} is not a route of this API.',
    method_not_allowed: '{method} is not allowed on {path}. Allowed: {allow}.',
    internal_error: 'An unexpected error occurred. It has been logged; please try again.',
    client_closed: 'The client closed the connection before the answer.',
    store_unavailable: 'The key and quota store cannot be reached right now. Nothing was charged; try again in a few seconds.',
    hold_expired:
      'The server paused for longer than the lease of this charge, which was given back: this answer is not delivered. Nothing more is charged; try again.',
    too_many_files: 'Too many files: at most {limit} per request.',
    text_too_long: 'The text has {count} characters; the limit is {limit} per text. Split it into shorter texts.',
    too_many_sentences: 'The text has more than the {limit} sentences a text of its length may have.',
    file_too_large: 'The file is larger than the limit of {limit} bytes.',
    extract_limit: 'Reading the file went past one of the extraction limits ({limit}).',
    unsupported_format: 'Unsupported file format: send TXT, MD, DOCX or PDF.',
    corrupt_file: 'The file is damaged and could not be read.',
    encrypted_pdf: 'The PDF is encrypted; remove the password and try again.',
    no_text: 'No text could be extracted from the file (is it a scanned image?).',
    extract_timeout: 'Reading the file took too long; it may be damaged or unusually complex.',
    extract_failed: 'The file could not be read because of an internal error; please try again.',
    extract_throttled:
      'Too many files from this key hit a reading limit lately ({limit} in {seconds} s): PDF, DOCX and Markdown files are refused for now; try again in a minute.',
    batch_timeout: 'The batch ran out of its time budget of {seconds} s before this file was processed.',
    invalid_calibration_id: 'The calibration id "{id}" is not valid: ids look like cal_ followed by 22 letters and digits.',
    calibration_not_found: 'No calibration profile "{id}" for this API key.',
    calibration_invalid:
      'The calibration profile "{id}" as stored is not a valid profile ({reason}): it is not applied. Delete it and make it again.',
    calibration_limit_reached: 'This API key already keeps {limit} calibration profiles: delete one before making another.',
    too_many_texts: 'Too many texts: at most {limit} per calibration ({count} sent).',
    calibration_timeout:
      'The texts took longer than {seconds} s to read and score. Send fewer or shorter texts, or have an operator run `bun run calibrate` on the archive.',
    calibration_too_small:
      'Too few usable texts in {language}: {count} of at least {min} (20 words or more each). Add texts, or leave that language out.',
    calibration_empty: 'No usable text: a calibration needs at least {min} texts of {minWords} words or more in a language.',
    calibration_ai_without_human:
      "{count} AI examples are in {language}, and no known-human text is: a language's bars are set on its human texts, so these examples cannot be used. Add at least {min} human texts in {language}, or leave those examples out. Nothing was charged.",
  },
  /** Messages of one case of an error code (`params.variant`, see errorMessage): the code stays the same. */
  errorVariants: {
    quota_exceeded_unread:
      'Not enough words left this month: a batch needs at least {words} words and {remaining} of {limit} remain, so the batch was not read. The quota resets at {reset}.',
    invalid_api_key_scheme:
      'The Authorization scheme "{scheme}" is not supported: send the key as X-API-Key: <key> or Authorization: Bearer <key>.',
    exceeds_plan_calibration:
      'This calibration needs {words} words, more than the {limit} words a month of the {plan} plan: it can never fit, and a profile cannot be split. Make it offline with `bun run calibrate` (free, no API key, the texts never leave your machine), or use a larger plan.',
    unsupported_media_type_batch:
      'Unsupported Content-Type: POST /v1/detect/batch takes multipart/form-data with files[]; send one text as application/json to POST /v1/detect.',
    unsupported_media_type_calibration:
      'Unsupported Content-Type: send application/json with "name", "texts" (known-human texts) and optionally "aiTexts" (AI examples), or multipart/form-data with a "name" field, files[] and optionally aiFiles[].',
    invalid_request_name_required: 'The "name" field is required: 1 to {limit} characters.',
    invalid_request_name_too_long: 'The "name" field is too long: {length} characters, at most {limit}.',
    invalid_request_texts_required:
      'The "texts" field is required: {ai} AI examples in "aiTexts" alone cannot make a profile, whose bars are set on known-human texts. Add at least {min} human texts per language in "texts".',
    invalid_request_misspelt_json_field:
      'Unknown field "{field}": did you mean "{suggestion}"? A calibration takes "name", "texts" and "aiTexts".',
    invalid_request_unknown_json_field: 'Unknown field "{field}": a calibration takes "name", "texts" and "aiTexts".',
    invalid_request_misspelt_form_field:
      'Unknown form part "{field}": did you mean "{suggestion}"? A calibration takes "name", "files[]" and "aiFiles[]".',
    invalid_request_unknown_form_field: 'Unknown form part "{field}": a calibration takes "name", "files[]" and "aiFiles[]".',
    calibration_empty_ai_only:
      'No known-human text: {ai} usable AI examples were sent, and a profile\'s bars are set on known-human texts. Send at least {min} human texts of {minWords}+ words per language in "{field}" with them.',
    calibration_too_small_scored:
      'Too few usable texts in {language} once scored: {count} of at least {min} (20 words or more each). Add texts, or leave that language out. Charged: the texts were scored before this could be seen.',
    calibration_ai_without_human_scored:
      '{count} AI examples are in {language} once scored, and no known-human text is: these examples cannot be used. Add at least {min} human texts in {language}, or leave those examples out. Charged: the texts were scored before this could be seen.',
  },
  /** extract_limit's message per limit (`kind`): it names the limit that was hit. */
  extractLimits: {
    pdf_pages: 'The PDF has {actual} pages, more than the limit of {limit}.',
    pdf_stream_bytes: 'A compressed stream in the PDF unpacks to more than {limit} bytes.',
    pdf_inflated_bytes: 'The compressed streams of the PDF unpack to more than {limit} bytes in total.',
    pdf_page_operators: 'Page {page} of the PDF has more than {limit} drawing instructions.',
    pdf_operators: 'The PDF has more than {limit} drawing instructions in all.',
    pdf_page_forms: 'Page {page} of the PDF draws more than {limit} reusable graphic objects (form XObjects).',
    pdf_page_chars: 'Page {page} of the PDF has more than {limit} characters of text.',
    docx_inflated_bytes: 'The DOCX unpacks to more than {limit} bytes.',
    text_chars: 'The file has more than {limit} characters of text.',
    text_sentences: 'The text has more than {limit} sentences for its length: too many to score.',
    memory: 'Reading the file needed more than {limit} MB of memory.',
  },
  verdicts: {
    human: 'Human-written',
    likely_human: 'Likely human-written',
    inconclusive: 'Not enough evidence',
    mixed: 'Mixed: human and AI passages',
    likely_ai: 'Likely AI-generated',
    ai: 'AI-generated',
  },
  docTypes: {
    essay: 'Essay',
    academic: 'Academic text',
    news: 'News article',
    story: 'Story or fiction',
    email: 'Email or letter',
    review: 'Review',
    social_post: 'Social media post',
    qa_answer: 'Answer to a question',
    technical: 'Technical or how-to text',
    reference: 'Reference or encyclopedic text',
    list_notes: 'List or notes',
    other: 'Other',
  },
  dimensions: {
    lexical_fingerprint: 'Learned AI word-pattern fingerprint',
    low_burstiness: 'Uniform sentence length (low burstiness)',
    predictable_vocabulary: 'Predictable, high-frequency vocabulary',
    stock_phrases: 'Stock AI phrasing',
    transition_overuse: 'Overuse of transitions',
    formal_register: 'Formal register without personal voice',
    repetitive_openings: 'Repetitive sentence openings',
    chat_formatting: 'Chat-style headings and lists',
    uniform_paragraphs: 'Uniform paragraph lengths',
    low_specificity: 'Few concrete details (numbers, names)',
    hedged_framing: 'Hedged "balanced view" framing',
    obfuscation: 'Hidden characters or look-alike letters',
  },
  measuredError: {
    rate: 'In our tests, this mode flagged {rate} of {texts} human-written texts of this kind ({kind}); for texts like them, at most {bound}.',
    calibration: 'In your {texts} calibration texts, this mode flagged {rate}; for texts like them, at most {bound}.',
    otherWriters:
      'Writers unlike yours (reference texts of the kinds your profile covers): this mode flagged {rate} of {texts}; most: {label}, {most} (the model alone {model}).',
    otherWritersNoMost: 'Writers unlike yours (reference texts of the kinds your profile covers): this mode flagged {rate} of {texts}.',
    otherWritersNone:
      'The model has no reference texts of the kinds your profile covers: nothing says how this mode treats writers unlike yours.',
    unmeasured: 'This mode was not measured on human-written texts of this kind.',
    words: '{min}-{max} words',
    wordsFrom: '{min}+ words',
  },
  otherWriters: {
    line: '{lang} {mode}: other writers: flagged {rate} of {texts} reference texts; most: {label} {most} (model alone {model})',
    lineNoMost: '{lang} {mode}: other writers: flagged {rate} of {texts} reference texts',
    lineNone: '{lang} {mode}: other writers: no reference population of the kinds the profile covers',
    raised: ' (bar raised by the guard)',
    guard: '{lang}: bars guarded on {references} reference texts of {populations} populations of the kinds the profile covers',
  },
  languages: { en: 'English', es: 'Spanish', other: 'other languages' },
  calibrationNotes: {
    model_passages:
      'Your profile, adapted to your AI examples, reads the text as a whole (score {score}/100); the passages shown are the model’s own reading, which finds about {percent}% of the text AI-like.',
  },
  bullets: {
    lexical_ai: 'The word patterns as a whole match AI-generated text (score {percent}/100), most strongly in this passage.',
    lexical_human: 'The word patterns as a whole match human writing (score {percent}/100), as in this passage.',
    lexical_passage:
      'The word patterns of the AI-written passage match AI-generated text (passage score {percent}/100), most strongly in this sentence.',
    low_burstiness: 'Sentences are all about the same length, a rhythm typical of AI text.',
    predictable_vocabulary: 'The vocabulary stays with common, predictable words.',
    stock_phrases: 'Phrases that AI models overuse appear in {count, plural, one {# sentence} other {# sentences}}.',
    transition_overuse: 'Many sentences open with a transition word such as "Moreover" or "Furthermore".',
    formal_register: 'The tone stays formal throughout, with no contractions, questions or personal voice.',
    repetitive_openings: 'Several sentences start the same way.',
    chat_formatting: 'Headings, bold text or bullet lists are laid out like a chatbot answer.',
    uniform_paragraphs: 'Paragraphs are all of a similar length.',
    low_specificity: 'Few concrete details: hardly any numbers, names or places.',
    hedged_framing: 'The text weighs both sides without taking a position ("on the other hand", "pros and cons").',
    obfuscation:
      'Letters inside words were replaced by look-alikes or broken up by invisible characters, a trick used to evade detectors; the text was read as it would look.',
    obfuscation_unsure:
      'Letters inside words were replaced by look-alikes or broken up by invisible characters, a trick used to evade detectors: the reading is not trusted enough to call this text human.',
    mixed_authorship: 'About {percent}% of the text reads as AI-written, in passages such as this one; the rest reads as human writing.',
    varied_rhythm: 'Sentence length varies a lot, as in most human writing.',
    personal_voice: 'A personal voice (I, my, contractions) points toward a human writer.',
    concrete_details: 'Concrete details such as numbers and names point toward a human writer.',
    informal_register: 'Casual, informal wording points toward a human writer.',
    short_text:
      'With {words, plural, one {# word} other {# words}}, the text is too short to call either way at this sensitivity: the score is shown, but no verdict is given.',
    short_style:
      'With {words, plural, one {# word} other {# words}}, the text is too short to measure its style (rhythm, vocabulary, register): the score rests on its word patterns.',
    language_limit:
      'This model cannot yet tell AI from human writing in {language} texts under {min} words, at any sensitivity: with {words, plural, one {# word} other {# words}}, this one gets a score but no verdict.',
    language_unsupported:
      'This model cannot yet tell AI from human writing in {language} reliably enough to give a verdict: the text gets a score but no verdict.',
    ai_passage: 'One long passage reads strongly as AI-written, as here: the text as a whole is not called human.',
    uncertain_score: 'The score ({percent}/100) leans toward AI but stays below what this sensitivity needs to call it AI.',
    no_style_signals: 'No style signal stands out: rhythm, vocabulary and register are within the usual range of human writing.',
  },
  /**
   * A profile's warnings about its AI examples (decide/profile.ts profileWarnings, issue 43 item 4), by
   * code; `examples_differ_in_form` is `form` (the sentence) with the form's words from `forms`.
   */
  profileWarnings: {
    examples_rank_below_human:
      'The model reads your {aiTexts} AI examples as more human than your human texts (AUROC {auroc}): check the labels. Were human texts given as AI examples?',
    examples_differ_in_form:
      'Your AI examples differ from your human texts mainly in form: {form} ({ai} of the examples, {human} of the human texts). A profile would learn that form as AI and flag human texts written that way: {check}',
    mode_fell_back:
      'At {mode}, the adapted score caught fewer of your {aiTexts} AI examples ({caught}) than the model alone with your thresholds ({modelCaught}): this mode decides without the adaptation.',
    examples_look_human:
      'Not adapted: what sets your {aiTexts} AI examples apart from your human texts is also written by other human writers, so once the thresholds protect them nothing is gained. Check that the examples are AI text.',
    forms: {
      tokenised: "punctuation split from words (he' s, don' t, word , word)",
      wrapped: 'line breaks inside paragraphs',
      markdown: 'Markdown (headings, lists, bold)',
      curly: 'curly quotes and apostrophes',
      casing: 'unusual casing (no capitals, or mostly capitals)',
      opening: 'the opening word "{word}"',
      closing: 'a closing line (a signature or sign-off) most texts of one side share',
    },
    checks: {
      tokenised: 'check that both sides were exported the same way, and undo the tokenisation of the archive.',
      wrapped: 'remove hard line breaks on the side that has them, or give texts with the same line breaks.',
      markdown: 'give examples as plain text, like your human texts, or human texts in Markdown too.',
      curly: 'make the quotes of both sides the same.',
      casing: 'check that both sides keep their original casing.',
      opening: 'remove the shared opening ("{word}") from the examples.',
      closing: 'remove the signature or sign-off from the side that has it.',
    },
  },
};

/** Shape every language catalogue must have (the English one is the reference). */
export type Catalogue = typeof en;
