/** HTTP plumbing shared by the modules: errors, auth, language, body reading, request bookkeeping. */
export { ApiError, ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorParams } from './errors';
export { API_KEY_HEADER, authenticate, authPlugin, presentedSecret, requireKey, type FindKey } from './auth';
export { corsPlugin, CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS, CORS_EXPOSE_HEADERS, type CorsOptions } from './cors';
export { isJsonType, isMultipartType, parseJson, readBodyBytes, readBodyText } from './body';
export { errorMapper } from './error-mapper';
export { langPlugin } from './lang';
export { createJsonLogger, silentLogger, type Logger, type LogFields } from './logger';
export {
  CLIENT_CLOSED_STATUS,
  observePlugin,
  observeRequest,
  type ObserveDeps,
  type RequestFacts,
  type RequestOutcome,
} from './observe';
export { chooseRequestId, REQUEST_ID_HEADER, REQUEST_ID_PATTERN, requestIdOf, requestIdPlugin } from './request-id';
