/** English catalogue: every user-facing string. Sections are plain nested objects; es.ts has the same keys. */
export const en = {
  errors: {
    missing_api_key: 'Missing API key: send it in the X-API-Key header.',
    invalid_api_key: 'The API key is unknown or has been revoked.',
    invalid_json: 'The request body is not valid JSON.',
    invalid_request: 'The request is not valid: {detail}.',
    text_required: 'The field "text" is required and must be a string.',
    text_too_short: 'The text is too short: at least {min} words are needed, {count} found.',
    invalid_sensitivity: 'The field "sensitivity" must be one of: conservative, balanced, aggressive.',
    payload_too_large: 'The request body is larger than the limit of {limit} bytes.',
    unsupported_media_type: 'Unsupported Content-Type: send application/json (one text) or multipart/form-data (files).',
    quota_exceeded:
      'Monthly word quota exceeded: this request needs {words} words and {remaining} of {limit} remain. The quota resets at {reset}.',
    trial_calls_exhausted: 'This trial key has used all of its {limit} calls. Ask for a key on a paid or free plan.',
    not_found: 'Nothing here: {method} {path} is not a route of this API.',
    method_not_allowed: '{method} is not allowed on {path}. Allowed: {allow}.',
    internal_error: 'An unexpected error occurred. It has been logged; please try again.',
    too_many_files: 'Too many files: at most {limit} per request.',
    file_too_large: 'The file is larger than the limit of {limit} bytes.',
    unsupported_format: 'Unsupported file format: send TXT, MD, DOCX or PDF.',
    corrupt_file: 'The file is damaged and could not be read.',
    encrypted_pdf: 'The PDF is encrypted; remove the password and try again.',
    no_text: 'No text could be extracted from the file (is it a scanned image?).',
  },
};

/** Shape every language catalogue must have (the English one is the reference). */
export type Catalogue = typeof en;
