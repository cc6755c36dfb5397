/** Spanish catalogue: the same keys as en.ts. */
import type { Catalogue } from './en';

/** Every user-facing string in Spanish (typed against the English catalogue, so no key can be missing). */
export const es: Catalogue = {
  errors: {
    missing_api_key: 'Falta la clave de API: envíala en la cabecera X-API-Key (o como Authorization: Bearer <clave>).',
    invalid_api_key: 'La clave de API no existe o ha sido revocada.',
    invalid_json: 'El cuerpo de la petición no es JSON válido.',
    invalid_request: 'La petición no es válida: {detail}.',
    invalid_idempotency_key: 'Idempotency-Key debe tener de 1 a 255 caracteres ASCII visibles (un UUID es una buena elección).',
    idempotency_key_reused: 'Esta Idempotency-Key ya se usó con otro cuerpo de petición. Usa una clave nueva para una petición nueva.',
    idempotency_request_in_progress:
      'Una petición con esta Idempotency-Key aún está en curso. Vuelve a intentarlo en un momento para obtener su respuesta.',
    text_required: 'El campo "text" es obligatorio y debe ser una cadena de texto.',
    text_too_short: 'El texto es demasiado corto: se necesitan al menos {min} palabras y se han encontrado {count}.',
    invalid_sensitivity: 'El campo "sensitivity" debe ser uno de: conservative, balanced, aggressive.',
    payload_too_large: 'El cuerpo de la petición supera el límite de {limit} bytes.',
    unsupported_media_type: 'Content-Type no admitido: envía application/json (un texto) o multipart/form-data (archivos).',
    quota_exceeded:
      'No quedan palabras suficientes este mes: esta petición necesita {words} palabras y quedan {remaining} de {limit}. La cuota se renueva el {reset}.',
    trial_calls_exhausted: 'Esta clave de prueba ha usado sus {limit} llamadas. Solicita una clave de un plan gratuito o de pago.',
    exceeds_plan:
      'Esta petición necesita {words} palabras, más que las {limit} palabras al mes del plan {plan}: nunca cabrá. Divide el texto o el lote, o usa un plan mayor.',
    rate_limited:
      'Demasiadas peticiones: esta clave puede enviar {limit} peticiones cada {seconds} s. Vuelve a intentarlo dentro de {retryAfter} s.',
    not_found: 'Aquí no hay nada: {method} {path} no es una ruta de esta API.',
    method_not_allowed: '{method} no está permitido en {path}. Permitidos: {allow}.',
    internal_error: 'Se ha producido un error inesperado. Ha quedado registrado; inténtalo de nuevo.',
    client_closed: 'El cliente cerró la conexión antes de la respuesta.',
    store_unavailable:
      'Ahora mismo no se puede acceder al almacén de claves y cuotas. No se ha cobrado nada; inténtalo de nuevo en unos segundos.',
    hold_expired:
      'El servidor estuvo en pausa más tiempo que la reserva de este cobro, que se ha devuelto: esta respuesta no se entrega. No se cobra nada más; inténtalo de nuevo.',
    too_many_files: 'Demasiados archivos: como máximo {limit} por petición.',
    text_too_long: 'El texto tiene {count} caracteres; el límite es de {limit} por texto. Divídalo en textos más cortos.',
    too_many_sentences: 'El texto tiene más de las {limit} frases que puede tener un texto de su longitud.',
    file_too_large: 'El archivo supera el límite de {limit} bytes.',
    extract_limit: 'La lectura del archivo ha superado uno de los límites de extracción ({limit}).',
    unsupported_format: 'Formato de archivo no admitido: envía TXT, MD, DOCX o PDF.',
    corrupt_file: 'El archivo está dañado y no se ha podido leer.',
    encrypted_pdf: 'El PDF está cifrado; quita la contraseña e inténtalo de nuevo.',
    no_text: 'No se ha podido extraer texto del archivo (¿es una imagen escaneada?).',
    extract_timeout: 'La lectura del archivo ha tardado demasiado; puede estar dañado o ser muy complejo.',
    extract_failed: 'No se ha podido leer el archivo por un error interno; inténtalo de nuevo.',
    extract_throttled:
      'Demasiados archivos de esta clave han superado un límite de lectura ({limit} en {seconds} s): los archivos PDF, DOCX y Markdown se rechazan por ahora; inténtalo dentro de un minuto.',
    batch_timeout: 'El lote ha agotado su tiempo máximo de {seconds} s antes de procesar este archivo.',
    invalid_calibration_id: 'El identificador de calibración "{id}" no es válido: tiene la forma cal_ seguida de 22 letras y cifras.',
    calibration_not_found: 'No hay ningún perfil de calibración "{id}" para esta clave de API.',
    calibration_invalid:
      'El perfil de calibración "{id}", tal como está guardado, no es un perfil válido ({reason}): no se aplica. Bórralo y vuelve a crearlo.',
    calibration_limit_reached: 'Esta clave de API ya guarda {limit} perfiles de calibración: borra uno antes de crear otro.',
    too_many_texts: 'Demasiados textos: como máximo {limit} por calibración (se enviaron {count}).',
    calibration_timeout:
      'Leer y puntuar los textos llevó más de {seconds} s. Envía menos textos o más cortos, o pide a un operador que ejecute `bun run calibrate` sobre el archivo.',
    calibration_too_small:
      'Muy pocos textos utilizables en {language}: {count} de al menos {min} (de 20 palabras o más cada uno). Añade textos o deja fuera ese idioma.',
    calibration_empty: 'Ningún texto utilizable: una calibración necesita al menos {min} textos de {minWords} palabras o más en un idioma.',
    calibration_ai_without_human:
      'Hay {count} ejemplos de IA en {language} y ningún texto humano conocido: los umbrales de un idioma se fijan con sus textos humanos, así que esos ejemplos no se pueden usar. Añade al menos {min} textos humanos en {language}, o deja fuera esos ejemplos. No se ha cobrado nada.',
  },
  errorVariants: {
    quota_exceeded_unread:
      'No quedan palabras suficientes este mes: un lote necesita al menos {words} palabras y quedan {remaining} de {limit}, así que no se ha leído. La cuota se renueva el {reset}.',
    invalid_api_key_scheme:
      'El esquema de Authorization "{scheme}" no está admitido: envía la clave como X-API-Key: <clave> o Authorization: Bearer <clave>.',
    exceeds_plan_calibration:
      'Esta calibración necesita {words} palabras, más que las {limit} palabras al mes del plan {plan}: nunca cabrá, y un perfil no se puede dividir. Créalo sin conexión con `bun run calibrate` (gratis, sin clave de API, los textos no salen de tu máquina), o usa un plan mayor.',
    unsupported_media_type_batch:
      'Content-Type no admitido: POST /v1/detect/batch recibe multipart/form-data con files[]; envíe un texto como application/json a POST /v1/detect.',
    unsupported_media_type_calibration:
      'Content-Type no admitido: envía application/json con "name", "texts" (textos humanos conocidos) y, si quieres, "aiTexts" (ejemplos de IA), o multipart/form-data con un campo "name", files[] y, si quieres, aiFiles[].',
    invalid_request_name_required: 'El campo "name" es obligatorio: de 1 a {limit} caracteres.',
    invalid_request_name_too_long: 'El campo "name" es demasiado largo: {length} caracteres, como mucho {limit}.',
    invalid_request_texts_required:
      'El campo "texts" es obligatorio: {ai} ejemplos de IA en "aiTexts" no bastan para crear un perfil, cuyos umbrales se fijan con textos humanos conocidos. Añade al menos {min} textos humanos por idioma en "texts".',
    invalid_request_misspelt_json_field:
      'Campo desconocido "{field}": ¿querías decir "{suggestion}"? Una calibración admite "name", "texts" y "aiTexts".',
    invalid_request_unknown_json_field: 'Campo desconocido "{field}": una calibración admite "name", "texts" y "aiTexts".',
    invalid_request_misspelt_form_field:
      'Parte del formulario desconocida "{field}": ¿querías decir "{suggestion}"? Una calibración admite "name", "files[]" y "aiFiles[]".',
    invalid_request_unknown_form_field:
      'Parte del formulario desconocida "{field}": una calibración admite "name", "files[]" y "aiFiles[]".',
    calibration_empty_ai_only:
      'Ningún texto humano conocido: se enviaron {ai} ejemplos de IA utilizables, y los umbrales de un perfil se fijan con textos humanos conocidos. Envía con ellos al menos {min} textos humanos de {minWords} palabras o más por idioma en "{field}".',
    calibration_too_small_scored:
      'Muy pocos textos utilizables en {language} una vez puntuados: {count} de al menos {min} (de 20 palabras o más cada uno). Añade textos o deja fuera ese idioma. Cobrado: los textos se puntuaron antes de poder verlo.',
    calibration_ai_without_human_scored:
      'Hay {count} ejemplos de IA en {language} una vez puntuados y ningún texto humano conocido: esos ejemplos no se pueden usar. Añade al menos {min} textos humanos en {language}, o deja fuera esos ejemplos. Cobrado: los textos se puntuaron antes de poder verlo.',
  },
  extractLimits: {
    pdf_pages: 'El PDF tiene {actual} páginas, más que el límite de {limit}.',
    pdf_stream_bytes: 'Un flujo comprimido del PDF ocupa más de {limit} bytes al descomprimirlo.',
    pdf_inflated_bytes: 'Los flujos comprimidos del PDF ocupan más de {limit} bytes en total al descomprimirlos.',
    pdf_page_operators: 'La página {page} del PDF tiene más de {limit} instrucciones de dibujo.',
    pdf_operators: 'El PDF tiene más de {limit} instrucciones de dibujo en total.',
    pdf_page_forms: 'La página {page} del PDF dibuja más de {limit} objetos gráficos reutilizables (form XObjects).',
    pdf_page_chars: 'La página {page} del PDF tiene más de {limit} caracteres de texto.',
    docx_inflated_bytes: 'El DOCX ocupa más de {limit} bytes al descomprimirlo.',
    text_chars: 'El archivo tiene más de {limit} caracteres de texto.',
    text_sentences: 'El texto tiene más de {limit} frases para su longitud: demasiadas para analizarlo.',
    memory: 'La lectura del archivo ha necesitado más de {limit} MB de memoria.',
  },
  verdicts: {
    human: 'Escrito por una persona',
    likely_human: 'Probablemente escrito por una persona',
    inconclusive: 'Evidencia insuficiente',
    mixed: 'Mixto: pasajes humanos y de IA',
    likely_ai: 'Probablemente generado por IA',
    ai: 'Generado por IA',
  },
  docTypes: {
    essay: 'Ensayo',
    academic: 'Texto académico',
    news: 'Noticia',
    story: 'Relato o ficción',
    email: 'Correo o carta',
    review: 'Reseña',
    social_post: 'Publicación en redes sociales',
    qa_answer: 'Respuesta a una pregunta',
    technical: 'Texto técnico o instrucciones',
    reference: 'Texto de referencia o enciclopédico',
    list_notes: 'Lista o notas',
    other: 'Otro',
  },
  dimensions: {
    lexical_fingerprint: 'Huella de patrones de palabras de IA (modelo aprendido)',
    low_burstiness: 'Longitud de frases uniforme (poca variación)',
    predictable_vocabulary: 'Vocabulario predecible y muy frecuente',
    stock_phrases: 'Frases hechas típicas de la IA',
    transition_overuse: 'Abuso de conectores',
    formal_register: 'Registro formal sin voz personal',
    repetitive_openings: 'Comienzos de frase repetitivos',
    chat_formatting: 'Títulos y listas al estilo de un chat',
    uniform_paragraphs: 'Párrafos de longitud uniforme',
    low_specificity: 'Pocos detalles concretos (cifras, nombres)',
    hedged_framing: 'Enfoque equidistante ("por un lado… por otro")',
    obfuscation: 'Caracteres ocultos o letras que imitan a otras',
  },
  measuredError: {
    rate: 'En nuestras pruebas, este modo marcó el {rate} de {texts} textos escritos por personas de este tipo ({kind}); en textos como ellos, como mucho el {bound}.',
    calibration: 'En sus {texts} textos de calibración, este modo marcó el {rate}; en textos como ellos, como mucho el {bound}.',
    otherWriters:
      'Personas que escriben distinto de las suyas (textos de referencia de los tipos que cubre su perfil): este modo marcó el {rate} de {texts}; el grupo más marcado: «{label}», el {most} (el modelo solo, el {model}).',
    otherWritersNoMost:
      'Personas que escriben distinto de las suyas (textos de referencia de los tipos que cubre su perfil): este modo marcó el {rate} de {texts}.',
    otherWritersNone:
      'El modelo no tiene textos de referencia de los tipos que cubre su perfil: nada dice cómo trata este modo a personas que escriben distinto de las suyas.',
    unmeasured: 'Este modo no se ha medido en textos escritos por personas de este tipo.',
    words: '{min}-{max} palabras',
    wordsFrom: '{min} palabras o más',
  },
  otherWriters: {
    line: '{lang} {mode}: otras personas: marcó el {rate} de {texts} textos de referencia; el grupo más marcado: «{label}», el {most} (el modelo solo, el {model})',
    lineNoMost: '{lang} {mode}: otras personas: marcó el {rate} de {texts} textos de referencia',
    lineNone: '{lang} {mode}: otras personas: ningún grupo de referencia de los tipos que cubre el perfil',
    raised: ' (umbral subido por la salvaguarda)',
    guard: '{lang}: umbrales protegidos con {references} textos de referencia de {populations} grupos de los tipos que cubre el perfil',
  },
  languages: { en: 'inglés', es: 'español', other: 'otros idiomas' },
  calibrationNotes: {
    model_passages:
      'Su perfil, adaptado a sus ejemplos de IA, lee el texto como un todo (puntuación {score}/100); los pasajes mostrados son la lectura propia del modelo, que encuentra cerca del {percent}% del texto con rasgos de IA.',
  },
  bullets: {
    lexical_ai:
      'Los patrones de palabras en conjunto coinciden con texto generado por IA (puntuación {percent}/100), sobre todo en este pasaje.',
    lexical_human:
      'Los patrones de palabras en conjunto coinciden con la escritura humana (puntuación {percent}/100), como en este pasaje.',
    lexical_passage:
      'Los patrones de palabras del pasaje escrito por IA coinciden con texto generado por IA (puntuación del pasaje {percent}/100), sobre todo en esta frase.',
    low_burstiness: 'Todas las frases tienen casi la misma longitud, un ritmo típico del texto de IA.',
    predictable_vocabulary: 'El vocabulario se limita a palabras comunes y predecibles.',
    stock_phrases: 'Aparecen giros que los modelos de IA usan en exceso en {count, plural, one {# frase} other {# frases}}.',
    transition_overuse: 'Muchas frases empiezan con un conector como «Además» o «Asimismo».',
    formal_register: 'El tono es formal de principio a fin, sin preguntas ni voz personal.',
    repetitive_openings: 'Varias frases empiezan de la misma manera.',
    chat_formatting: 'Los títulos, negritas o listas siguen el formato de la respuesta de un chatbot.',
    uniform_paragraphs: 'Todos los párrafos tienen una longitud parecida.',
    low_specificity: 'Pocos detalles concretos: apenas hay cifras, nombres o lugares.',
    hedged_framing: 'El texto sopesa ambas posturas sin tomar partido («por un lado», «ventajas y desventajas»).',
    obfuscation:
      'Hay letras dentro de palabras sustituidas por otras parecidas o separadas por caracteres invisibles, un truco para engañar a los detectores; el texto se leyó tal como se vería.',
    obfuscation_unsure:
      'Hay letras dentro de palabras sustituidas por otras parecidas o separadas por caracteres invisibles, un truco para engañar a los detectores: la lectura no es lo bastante fiable para dar el texto por humano.',
    mixed_authorship: 'Cerca del {percent}% del texto se lee como escrito por IA, en pasajes como este; el resto, como escritura humana.',
    varied_rhythm: 'La longitud de las frases varía mucho, como en la mayoría de textos humanos.',
    personal_voice: 'Una voz personal (yo, mi) apunta a un autor humano.',
    concrete_details: 'Los detalles concretos, como cifras y nombres, apuntan a un autor humano.',
    informal_register: 'Un lenguaje coloquial e informal apunta a un autor humano.',
    short_text:
      'Con {words, plural, one {# palabra} other {# palabras}}, el texto es demasiado corto para decidir con esta sensibilidad: se muestra la puntuación, pero no hay veredicto.',
    short_style:
      'Con {words, plural, one {# palabra} other {# palabras}}, el texto es demasiado corto para medir su estilo (ritmo, vocabulario, registro): la puntuación se basa en sus patrones de palabras.',
    language_limit:
      'Este modelo aún no distingue la escritura de IA de la humana en textos en {language} de menos de {min} palabras, con ninguna sensibilidad: con {words, plural, one {# palabra} other {# palabras}}, este recibe una puntuación pero no un veredicto.',
    language_unsupported:
      'Este modelo aún no distingue con fiabilidad la escritura de IA de la humana en {language}: el texto recibe una puntuación pero no un veredicto.',
    ai_passage: 'Un pasaje largo se lee claramente como escrito por IA, como este: el texto en conjunto no se considera humano.',
    uncertain_score:
      'La puntuación ({percent}/100) se inclina hacia la IA, pero no llega a lo que esta sensibilidad exige para atribuirlo a la IA.',
    no_style_signals:
      'Ninguna señal de estilo destaca: el ritmo, el vocabulario y el registro están dentro de lo habitual en la escritura humana.',
  },
  profileWarnings: {
    examples_rank_below_human:
      'El modelo lee sus {aiTexts} ejemplos de IA como más humanos que sus textos humanos (AUROC {auroc}): compruebe las etiquetas. ¿Se dieron textos humanos como ejemplos de IA?',
    examples_differ_in_form:
      'Sus ejemplos de IA se distinguen de sus textos humanos sobre todo por la forma: {form} ({ai} de los ejemplos, {human} de los textos humanos). Un perfil aprendería esa forma como IA y marcaría los textos humanos escritos así: {check}',
    mode_fell_back:
      'En modo {mode}, la puntuación adaptada detectó menos de sus {aiTexts} ejemplos de IA ({caught}) que el modelo solo con sus umbrales ({modelCaught}): este modo decide sin la adaptación.',
    examples_look_human:
      'No adaptado: lo que distingue sus {aiTexts} ejemplos de IA de sus textos humanos también lo escriben otras personas, así que, con los umbrales protegiéndolas, no se gana nada. Compruebe que los ejemplos son texto de IA.',
    forms: {
      tokenised: "la puntuación separada de las palabras (he' s, don' t, palabra , palabra)",
      wrapped: 'saltos de línea dentro de los párrafos',
      markdown: 'Markdown (títulos, listas, negrita)',
      curly: 'comillas y apóstrofos tipográficos',
      casing: 'mayúsculas poco habituales (ninguna, o casi todo en mayúsculas)',
      opening: 'la palabra inicial «{word}»',
      closing: 'una línea final (una firma o despedida) que comparten la mayoría de los textos de un lado',
    },
    checks: {
      tokenised: 'compruebe que ambos lados se exportaron igual y deshaga la separación de la puntuación del archivo.',
      wrapped: 'quite los saltos de línea del lado que los tiene, o aporte textos con los mismos saltos.',
      markdown: 'aporte los ejemplos como texto plano, como sus textos humanos, o también textos humanos en Markdown.',
      curly: 'unifique las comillas de ambos lados.',
      casing: 'compruebe que ambos lados conservan sus mayúsculas originales.',
      opening: 'quite de los ejemplos la palabra inicial común («{word}»).',
      closing: 'quite la firma o despedida del lado que la tiene.',
    },
  },
};
