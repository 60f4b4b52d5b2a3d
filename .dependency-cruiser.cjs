/**
 * The layers' rules (docs/architecture.md), checked in CI (`npm run check:structure`).
 * Type-only imports count too: a cycle of types is still a cycle for a reader.
 */
const notTests = '\\.test\\.ts$|\\.fixtures?\\.ts$';

module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', from: {}, to: { circular: true } },
    { name: 'no-folder-cycle', severity: 'error', scope: 'folder', from: {}, to: { circular: true } },
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
      to: { path: '^src/(http|modules|infrastructure|jobs)/' },
    },
    {
      name: 'modules-know-no-engine',
      comment: 'Engine specifics live under src/db/sqlite and src/db/postgres; tests may look at them.',
      severity: 'error',
      from: { path: '^src/(modules|infrastructure|jobs|http|core)/', pathNot: notTests },
      to: { path: '^src/db/(sqlite|postgres)/' },
    },
    {
      name: 'hooks-know-no-resource',
      comment: 'Request hooks and plugins in src/http/ serve every resource and know none.',
      severity: 'error',
      from: { path: '^src/http/', pathNot: notTests },
      to: { path: '^src/modules/' },
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
