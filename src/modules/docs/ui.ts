/** The offline Swagger UI: our own page plus swagger-ui-dist's bundle and CSS, served by the app. */
import bundlePath from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' };
import cssPath from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' };
import faviconPath from 'swagger-ui-dist/favicon-32x32.png' with { type: 'file' };

/** Static assets under /swagger/assets/<name>: path on disk (or in the binary) and content type. */
export const SWAGGER_ASSETS: Readonly<Record<string, { path: string; type: string }>> = {
  'swagger-ui-bundle.js': { path: bundlePath, type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { path: cssPath, type: 'text/css; charset=utf-8' },
  'favicon-32x32.png': { path: faviconPath, type: 'image/png' },
};

/**
 * Swagger UI settings (https://swagger.io/docs/open-source-tools/swagger-ui/usage/configuration/):
 * schemas open two levels deep, so each field's type, integer bounds and enum values show without
 * clicking through; the key typed into "Authorize" survives a reload.
 */
function uiOptions(specUrl: string) {
  return {
    url: specUrl,
    dom_id: '#swagger-ui',
    persistAuthorization: true,
    deepLinking: true,
    defaultModelExpandDepth: 3,
    defaultModelsExpandDepth: 1,
    displayRequestDuration: true,
  };
}

/**
 * Swagger UI's response interceptor, as page script: an NDJSON answer (a batch) is shown as the JSON
 * array of its lines. Swagger UI parses any type matching /json/ as one JSON document, and printed
 * "can't parse JSON" for application/x-ndjson; the headers still say what was sent.
 */
const NDJSON_AS_ARRAY = `function (res) {
  var type = String((res.headers && res.headers['content-type']) || '');
  if (!/application\\/x-ndjson/i.test(type) || typeof res.text !== 'string') return res;
  try {
    var lines = res.text.split('\\n').filter(function (l) { return l.trim() !== ''; }).map(function (l) { return JSON.parse(l); });
    res.text = res.data = JSON.stringify(lines);
    res.body = res.obj = lines;
  } catch (e) {}
  return res;
}`;

/**
 * Swagger UI's request interceptor, as page script: a form field left empty is not sent. Swagger UI
 * sends every field of a multipart form, `calibration=""` included, which the batch form refuses (400
 * `invalid_calibration_id`: issue 40 made an empty `calibration` an error rather than "no profile",
 * since a client that names one must never be scored without it); a field nobody filled in is absent.
 */
const EMPTY_FIELDS_LEFT_OUT = `function (req) {
  if (typeof FormData !== 'undefined' && req.body instanceof FormData) {
    var empty = [];
    req.body.forEach(function (value, name) { if (value === '') empty.push(name); });
    empty.forEach(function (name) { req.body.delete(name); });
  }
  return req;
}`;

/** The HTML page at /swagger: loads only same-origin assets, then the spec at `specUrl`. */
export function swaggerPage(title: string, specUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <link rel="icon" type="image/png" href="/swagger/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/swagger/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/swagger/assets/swagger-ui-bundle.js"></script>
  <script>
    var options = ${JSON.stringify(uiOptions(specUrl))};
    options.responseInterceptor = ${NDJSON_AS_ARRAY};
    options.requestInterceptor = ${EMPTY_FIELDS_LEFT_OUT};
    window.ui = SwaggerUIBundle(options);
  </script>
</body>
</html>`;
}
