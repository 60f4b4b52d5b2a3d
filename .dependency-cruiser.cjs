/**
 * The layers' rules (docs/architecture.md), checked in CI by `npm run check:structure`
 * (scripts/structure/check-structure.ts, which adds from the same cruise the folder cycles
 * that dependency-cruiser cannot see, the engine branches outside src/db, and the diagram).
 * Type-only imports count too: a cycle of types is still a cycle for a reader.
 */
const notTests = '\\.test\\.ts$|\\.fixtures?\\.ts$';

module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'no-folder-cycle',
      comment:
        'Between folders as dependency-cruiser counts them: a folder with its subfolders. It cannot see a cycle ' +
        'between a folder and its own subfolder (db/ and db/postgres/): scripts/structure/folder-cycles.ts does.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-knows-no-http',
      comment: 'src/core/ is the vocabulary every layer shares: no HTTP, no resource, no engine.',
      severity: 'error',
      from: { path: '^src/core/', pathNot: notTests },
      to: { path: ['^src/(http|modules|infrastructure|jobs)/', '^src/db/(sqlite|postgres)/', '^node_modules/fastify/'] },
    },
    {
      name: 'db-knows-no-module',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(?!db/)' },
    },
    {
      name: 'only-db-knows-the-engines',
      comment:
        'Engine specifics live under src/db/sqlite and src/db/postgres, reached through the Engine of ' +
        'src/db/engine/ (engineOf); tests may look at them.',
      severity: 'error',
      from: { path: '^src/(?!db/)', pathNot: notTests },
      to: { path: '^src/db/(sqlite|postgres)/' },
    },
    {
      name: 'engines-know-only-the-contract',
      comment:
        'An engine implements src/db/engine/ and reads the schema; it imports no other file of db/ (which ' +
        'imports the engines: that would be a cycle between db/ and the engine) and not the other engine.',
      severity: 'error',
      from: { path: '^src/db/(sqlite|postgres)/' },
      to: { path: '^src/db/', pathNot: '^src/db/(engine/|schema[.]ts$|$1/)' },
    },
    {
      name: 'the-contract-knows-no-engine',
      comment: 'src/db/engine/ is what engines implement and build on: it imports nothing else of db/ but the schema.',
      severity: 'error',
      from: { path: '^src/db/engine/' },
      to: { path: '^src/db/', pathNot: '^src/db/(engine/|schema[.]ts$)' },
    },
    {
      name: 'the-dialect-is-for-migrations',
      comment:
        'dialectOf tells which engine runs, which migrations (frozen in time) need for column types; all ' +
        'other code asks the engine what it can do.',
      severity: 'error',
      from: { pathNot: '^src/db/migrations/' },
      to: { path: '^src/db/dialect[.]ts$' },
    },
    {
      name: 'the-vocabulary-is-words',
      comment:
        "src/http/vocabulary/ (the API's shared schemas, responses, problems, the module contract) is what " +
        'routes and the request pipeline speak: it imports neither.',
      severity: 'error',
      from: { path: '^src/http/vocabulary/' },
      to: { path: '^src/http/(pipeline|replies)/' },
    },
    {
      name: 'the-pipeline-sends-no-reply',
      comment:
        'The request pipeline (src/http/pipeline/) serves every route; the helpers a route replies with ' +
        '(src/http/replies/) are the routes’ own.',
      severity: 'error',
      from: { path: '^src/http/pipeline/', pathNot: notTests },
      to: { path: '^src/http/replies/' },
    },
    {
      name: 'hooks-know-no-resource',
      comment: 'Request hooks and plugins in src/http/ serve every resource and know none.',
      severity: 'error',
      from: { path: '^src/http/', pathNot: notTests },
      to: { path: '^src/modules/' },
    },
    {
      name: 'modules-meet-through-services',
      comment:
        'A module uses another through its service (and its rules and schemas), never through its ' +
        'repository: each table is read and written by the module that owns it.',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: notTests },
      to: { path: '[.]repository[.]ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'services-know-no-http',
      comment: 'Rules and data access (services, repositories, jobs) know no HTTP: routes do.',
      severity: 'error',
      from: { path: '\\.(service|repository|rules|job)\\.ts$' },
      to: { path: ['^src/http/', '^node_modules/fastify/'] },
    },
  ],
  options: {
    // Tests may reach into any layer (and src/**/*.test.ts into test/): the rules are for the product's code.
    exclude: { path: ['^test/', notTests] },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
