/** `bun run eval --loso` (see scripts/lib/eval-loso.ts): prints the held-out tables the model card quotes. */
import { MODEL } from '../../src/detector/score/load';
import { dataDir, hasData } from './data';
import { docTypeLoso, heldOutScores, losoReport } from './eval-loso';
import { startHeldOutHelper } from './loso-helper';
import { prepare } from './pipeline';

if (!hasData()) {
  console.error(`eval --loso: no shared data at ${dataDir()} (set DATA_DIR)`);
  process.exit(2);
}
const t0 = performance.now();
const log = (m: string) => console.error(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const helper = startHeldOutHelper({});
const prepared = await prepare();
log(`featurized ${prepared.docs.length} texts and excerpts`);
const scores = await heldOutScores(prepared, MODEL, {
  helper,
  onFamily: (family, done, total) => log(`held out ${family} (${done}/${total})`),
});
console.log('## Detection, each source family held out\n');
console.log(losoReport(scores).markdown);
console.log('\n## Document type, each source held out\n');
console.log(docTypeLoso(prepared.docs).markdown);
