/**
 * Runs once before the first test file of a `bun test` process. The whole suite starts the
 * committed-model check's retraining here, in the background at idle priority (fixtures/retrain.ts).
 */
import { hasData } from '../scripts/lib/data';
import { isWholeSuite, retrainRun } from './fixtures/retrain';

if (hasData() && isWholeSuite()) retrainRun(true);
