// Writes src/schema.ts, the API's types, from the repository's openapi.json;
// with --check, writes nothing and fails when the committed file differs.
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

const documentUrl = new URL('../../../openapi.json', import.meta.url);
const outputUrl = new URL('../src/schema.ts', import.meta.url);

// Every component also as a type of its own name (Plan, MemberPage, Problem, …); every enum also as an
// array of its values (memberStatusValues, eventTypeValues, …), for a form's choices or a filter's options;
// a field with a default stays optional in a request body (the service fills it in).
const ast = await openapiTS(documentUrl, {
  rootTypes: true,
  rootTypesNoSchemaPrefix: true,
  enumValues: true,
  defaultNonNullable: false,
  silent: true,
});
const generated = `${COMMENT_HEADER}${astToString(ast)}`;

if (process.argv.includes('--check')) {
  if (readFileSync(outputUrl, 'utf8') !== generated) {
    console.error(
      'packages/client/src/schema.ts is out of date with openapi.json: run "npm run generate -w @facility-admin/client" and commit it',
    );
    process.exit(1);
  }
} else {
  writeFileSync(outputUrl, generated);
}
