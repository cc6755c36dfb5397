/** swagger-ui-dist files imported `with { type: 'file' }` resolve to a path (embedded by --compile). */
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string;
  export default path;
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string;
  export default path;
}
declare module 'swagger-ui-dist/favicon-32x32.png' {
  const path: string;
  export default path;
}
