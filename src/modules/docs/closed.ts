/**
 * Answer schemas closed for the OpenAPI document (issue 45 item 8): every object of an answer gets
 * `additionalProperties: false`, so a strict validator of the served document catches a field the
 * server sends but the document does not name (drift), and a generated client types no open index.
 * Request schemas stay open here: what the server does with an unknown request field is the route's
 * rule (a calibration request refuses one; detection ignores one), said in each operation.
 */

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A deep copy of `schema` with every object that lists its properties, and sets nothing else, closed. */
export function closedSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(closedSchema) as T;
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) out[k] = closedSchema(v);
  // TypeBox records (patternProperties) and objects that already say what else they take are left as they are.
  if (out.type === 'object' && isSchema(out.properties) && out.additionalProperties === undefined && out.patternProperties === undefined) {
    out.additionalProperties = false;
  }
  // TypeBox marks its schemas with symbol keys (Kind, Optional): Object.entries skips them, and the document needs none.
  return out as T;
}

/** The component schemas with each answer's closed (`requests` named stay open). */
export function closedAnswers(schemas: Record<string, object>, requests: readonly string[]): Record<string, object> {
  return Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, requests.includes(name) ? s : closedSchema(s)]));
}
