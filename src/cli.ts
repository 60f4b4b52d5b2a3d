#!/usr/bin/env node
// First: it must run before any module below loads the native SQLite driver.
import './runtime-check.js';
import cluster from 'node:cluster';
import { Command } from 'commander';
import { announceDatabase, openCommandDatabase } from './cli-database.js';
import { registerStaffCommands } from './cli-staff.js';
import { type Config, loadConfig } from './config.js';
import { migrateToLatest } from './db/migrate.js';
import { registerKeyCommands } from './infrastructure/api-keys/api-key.cli.js';
import { registerMemberCsvCommands } from './modules/members/csv/member-csv.cli.js';
import { packageName, packageVersion } from './package-info.js';
import { explainFailure } from './startup-failure.js';

/** The `facility-admin` command: serve (also what runs without a command), migrate, openapi, keys, members. */
const program = new Command(packageName)
  .description('Administration service for sports and fitness facilities')
  .version(packageVersion)
  // Set before the commands are added: each command copies them.
  .showHelpAfterError()
  .allowExcessArguments(false)
  .addHelpText('after', '\nWithout a command, facility-admin runs "serve".');

program
  .command('serve')
  .description('migrate the database (creating a missing SQLite file) and serve the HTTP API')
  .action(async () => {
    const config = loadConfig();
    // With WORKERS, every worker runs this action too; the primary has said it once.
    if (cluster.isPrimary) announceDatabase(config);
    // Loaded here: the HTTP stack is most of the start-up time of the other commands.
    const { serve } = await import('./server.js');
    await serve(config);
  });

program
  .command('migrate')
  .description('apply pending database migrations (creating a missing SQLite file) and exit')
  .action(async () => {
    const database = openCommandDatabase(loadConfig(), { create: true });
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
  .description('print the OpenAPI document (uses an in-memory database)')
  .action(async () => {
    const config: Config = { ...loadConfig(), databaseUrl: 'sqlite::memory:', logLevel: 'silent' };
    const { buildApp } = await import('./app.js');
    const app = await buildApp(config);
    process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
    await app.close();
  });

registerKeyCommands(program);
registerStaffCommands(program);
registerMemberCsvCommands(program);

const args = process.argv.slice(2);
program.parseAsync(args.length === 0 ? ['serve'] : args, { from: 'user' }).catch((error: unknown) => {
  const explained = explainFailure(error, configIfValid());
  console.error(explained === undefined ? error : `${packageName}: ${explained}`);
  process.exit(1);
});

function configIfValid(): Config | undefined {
  try {
    return loadConfig();
  } catch {
    return undefined;
  }
}
