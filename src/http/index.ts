/** HTTP plumbing shared by the modules: errors, auth, language, body reading, request bookkeeping. */
export { ApiError, ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorParams } from './errors';
export { API_KEY_HEADER, authenticate, authPlugin, requireKey } from './auth';
export { contextOf, type RequestContext } from './context';
export { isJsonType, isMultipartType, parseJson, readBodyBytes, readBodyText } from './body';
export { errorMapper } from './error-mapper';
export { langPlugin } from './lang';
export { createJsonLogger, silentLogger, type Logger, type LogFields } from './logger';
export { observeRequest, type RequestOutcome } from './observe';
