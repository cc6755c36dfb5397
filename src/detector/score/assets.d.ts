/** Binary model files imported `with { type: 'file' }` resolve to a path (embedded in compiled binaries). */
declare module '*.wasm' {
  const path: string;
  export default path;
}
declare module '*.bin' {
  const path: string;
  export default path;
}
