#!/usr/bin/env node
// First: it must run before any module below loads the native SQLite driver.
import './runtime-check.js';
import { Command, InvalidArgumentError } from 'commander';
import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { registerKeyCommands } from './modules/api-keys/api-key.cli.js';
import { TemplateCatalogError } from './modules/templates/template.catalog.js';
import { serve } from './server.js';

/** The `facility-admin` command: serve (the default), migrate, openapi. */
const program = new Command('facility-admin').description(
  'Administration service for sports and fitness facilities',
);

program
  .command('serve', { isDefault: true })
  .description('migrate the database and serve the HTTP API (the default)')
  .action(async () => {
    await serve(loadConfig());
  });

program
  .command('migrate')
  .description('apply pending database migrations and exit')
  .action(async () => {
    const config = loadConfig();
    const database = openDatabase(config.databaseUrl);
    try {
      const { results } = await migrateToLatest(database.db);
      const applied = (results ?? []).map((r) => r.migrationName);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
    } finally {
      await database.close();
    }
  });

program
  .command('openapi')
  .description('print the OpenAPI document')
  .action(async () => {
    const config: Config = { ...loadConfig(), databaseUrl: 'sqlite::memory:', logLevel: 'silent' };
    const app = await buildApp(config);
    process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
    await app.close();
  });

registerKeyCommands(program);

program.parseAsync().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof TemplateCatalogError ||
    error instanceof InvalidArgumentError
  ) {
    console.error(`facility-admin: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
