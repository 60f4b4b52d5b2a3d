/**
 * The structure check (`npm run check:structure`, run by .ci/run): one cruise
 * of src by dependency-cruiser, with the layers' rules of
 * .dependency-cruiser.cjs, and from its result:
 *   - the cycles between folders that dependency-cruiser cannot see (folder-cycles.ts);
 *   - the architecture diagram of docs/architecture.md, compared with the
 *     one generated from the same result (architecture-diagram.ts);
 * and, outside src/db, every place that asks which engine runs (engine-branches.ts).
 *
 *   npm run check:structure              fails on any of them
 *   npm run check:structure -- --write   writes the diagram into docs/architecture.md first
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, type ICruiseResult } from 'dependency-cruiser';
import { architectureDiagram, DIAGRAM_FILE, withDiagram } from './architecture-diagram.js';
import { ALLOWED_ENGINE_BRANCHES, engineBranches } from './engine-branches.js';
import { folderCycles, KNOWN_FOLDER_CYCLES } from './folder-cycles.js';

process.chdir(join(import.meta.dirname, '..', '..'));
const write = process.argv.includes('--write');
const problems: string[] = [];

const cruised = spawnSync(
  process.execPath,
  [
    'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
    'src',
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'json',
  ],
  { encoding: 'utf8', maxBuffer: 1 << 28 },
);
if (cruised.stdout === '') throw new Error(`dependency-cruiser failed: ${cruised.stderr}`);
const result = JSON.parse(cruised.stdout) as ICruiseResult;

const rules = await format(result, { outputType: 'err' });
process.stdout.write(rules.output as string);
if (rules.exitCode !== 0) problems.push('the layers’ rules (.dependency-cruiser.cjs), above');

const { cycles, stale } = folderCycles(result.modules);
for (const cycle of cycles) problems.push(`a cycle between folders:\n    ${cycle.join('\n    ')}`);
for (const arrow of stale)
  problems.push(`${arrow} closes no cycle any more: take it off KNOWN_FOLDER_CYCLES`);

const sources = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .map((path) => join('src', path))
  .filter((path) => path.endsWith('.ts') && !/\.test\.ts$|\.fixtures?\.ts$/.test(path))
  .filter((path) => !path.startsWith('src/db/'))
  .sort();
for (const path of sources) {
  const branches = engineBranches(path);
  const allowed = ALLOWED_ENGINE_BRANCHES[path];
  if (allowed === undefined) for (const branch of branches) problems.push(`outside src/db, ${branch}`);
  else if (branches.length === 0)
    problems.push(`${path} asks no longer which engine runs: take it off ALLOWED_ENGINE_BRANCHES`);
}

const docs = readFileSync(DIAGRAM_FILE, 'utf8');
const withCurrent = withDiagram(docs, architectureDiagram(result.modules));
if (withCurrent === undefined) problems.push(`${DIAGRAM_FILE} has lost the markers of the structure diagram`);
else if (withCurrent !== docs && write) writeFileSync(DIAGRAM_FILE, withCurrent);
else if (withCurrent !== docs)
  problems.push(
    `${DIAGRAM_FILE}: the structure diagram is out of date: run \`npm run check:structure -- --write\``,
  );

if (problems.length > 0) {
  console.error(`\nstructure check failed:\n  ${problems.join('\n  ')}`);
  process.exitCode = 1;
} else {
  const known = Object.keys(KNOWN_FOLDER_CYCLES).length;
  console.log(
    `structure: ${result.summary.totalCruised} modules, no folder cycle but the ${known} known, ` +
      'no engine branch outside src/db but the allowed, the diagram current',
  );
}
