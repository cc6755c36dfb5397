/**
 * TypeBox builders for the API contract whose JSON Schema is valid OpenAPI 3.1 as emitted. Use
 * these instead of Elysia's `t.Integer` / a union of `t.Literal`s in contract schemas.
 */
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Type, type IntegerOptions, type SchemaOptions, type TInteger, type TSchema } from '@sinclair/typebox';
import { t } from 'elysia';

/**
 * A JSON integer, `{ type: 'integer' }`. Elysia's `t.Integer` also accepts numeric strings (for
 * query strings) and is documented as `anyOf [string, integer]`, which generated clients type as
 * `string | number`.
 */
export function Int(options?: IntegerOptions): TInteger {
  return Type.Integer(options);
}

/**
 * One string of a fixed list, `{ type: 'string', enum: [...] }`: Swagger UI lists the values and
 * generated clients type it as their union (a union of `t.Literal`s shows as "any of" consts).
 * Pass the single-source constant (e.g. VERDICT_KEYS), never a copy of it.
 */
export function StringEnum<const T extends readonly [string, ...string[]]>(values: T, options: SchemaOptions = {}) {
  // t.UnionEnum defaults to its first value, which would document a default a response never has.
  return t.UnionEnum(values, { default: undefined, ...options });
}

/** `Object.keys` of a non-empty record, typed for StringEnum (e.g. the codes of ERROR_STATUS). */
export function keysOf<K extends string>(record: Readonly<Record<K, unknown>>): [K, ...K[]] {
  return Object.keys(record) as [K, ...K[]];
}

/** A compiled checker for a schema (TypeBox's JIT: about as fast as a hand-written check). */
export function compileSchema<T extends TSchema>(schema: T): TypeCheck<T> {
  return TypeCompiler.Compile(schema);
}

/** Reference to the shared `default` response of every operation (components.responses.Error, src/modules/docs/openapi.ts). */
export const DEFAULT_ERROR_RESPONSE = { $ref: '#/components/responses/Error' } as const;
