/** Test helper: the ExtractError code a promise rejects with ('resolved' when it does not reject). */
import { ExtractError } from '../../src/extract/errors';

export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof ExtractError ? error.code : `not-an-ExtractError: ${error}`;
  }
}
