/** Lets TypeScript import the playground stylesheet as text (`with { type: 'text' }`). */
declare module '*/web/styles.css' {
  const text: string;
  export default text;
}
