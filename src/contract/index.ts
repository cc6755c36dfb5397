/** The shared vocabulary of the server, the detector, the CLI and the playground: each concept defined once. */
export * from './errors';
export * from './languages';
export * from './sensitivity';
export * from './share';
export * from './text-length';
export * from './verdicts';
export * from './words';
