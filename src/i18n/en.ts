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
  },
  /** Messages of one case of an error code (`params.variant`, see errorMessage): the code stays the same. */
  errorVariants: {
    quota_exceeded_unread:
      'Not enough words left this month: a batch needs at least {words} words and {remaining} of {limit} remain, so the batch was not read. The quota resets at {reset}.',
    invalid_api_key_scheme:
      'The Authorization scheme "{scheme}" is not supported: send the key as X-API-Key: <key> or Authorization: Bearer <key>.',
    exceeds_plan_calibration:
      'This calibration needs {words} words, more than the {limit} words a month of the {plan} plan: it can never fit, and a profile cannot be split. Make it offline with `bun run calibrate` (free, no API key, the texts never leave your machine), or use a larger plan.',
    unsupported_media_type_calibration:
      'Unsupported Content-Type: send application/json with "name" and "texts" (an array of texts), or multipart/form-data with a "name" field and files[].',
    invalid_request_name_required: 'The "name" field is required: 1 to {limit} characters.',
    invalid_request_name_too_long: 'The "name" field is too long: {length} characters, at most {limit}.',
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
    unmeasured: 'This mode was not measured on human-written texts of this kind.',
    words: '{min}-{max} words',
    wordsFrom: '{min}+ words',
  },
  languages: { en: 'English', es: 'Spanish', other: 'other languages' },
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
};

/** Shape every language catalogue must have (the English one is the reference). */
export type Catalogue = typeof en;
