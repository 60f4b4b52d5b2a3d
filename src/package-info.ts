import { readFileSync } from 'node:fs';

/**
 * The package's name and version, read once from package.json: the CLI's
 * `--version` and the OpenAPI document's `info.version` say the same thing.
 * The file is one level above both src/ and dist/, so the path holds for
 * the checkout and the build.
 */
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

export const packageName: string = manifest.name;
export const packageVersion: string = manifest.version;
