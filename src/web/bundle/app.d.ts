/** The bundled playground script, imported by the server `with { type: 'text' }` (see src/web/build.ts). */
declare const source: string;
export default source;
