import { type Command, InvalidArgumentError, Option } from 'commander';
import { openCommandDatabase } from '../../cli-database.js';
import { loadConfig } from '../../config.js';
import { KEY_ROLES, type Role } from '../../core/roles.js';
import type { Db } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { listApiKeys } from './api-key.repository.js';
import { createApiKey, revokeKey } from './api-key.service.js';

function parseFacilityIds(value: string): number[] {
  const ids = value.split(',').map((part) => part.trim());
  if (ids.length === 0 || !ids.every((id) => /^[1-9]\d{0,15}$/.test(id))) {
    throw new InvalidArgumentError('expected positive facility ids separated by commas, e.g. 1,2,3');
  }
  return ids.map(Number);
}

/** Runs `work` on the service's database; a missing SQLite file is created only with `--create`. */
async function withDatabase<T>(work: (db: Db) => Promise<T>, create = false): Promise<T> {
  const database = openCommandDatabase(loadConfig(), {
    create,
    createHint: 'pass --create to "keys create" to create it',
  });
  try {
    await migrateToLatest(database.db);
    return await work(database.db);
  } finally {
    await database.close();
  }
}

/** `facility-admin keys create|list|revoke`: API keys are managed here only, never over HTTP. */
export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('manage API keys');

  keys
    .command('create')
    .description('create an API key and print it (only the key, on stdout); it is shown only this once')
    .requiredOption('--name <name>', 'who or what the key is for')
    .addOption(
      new Option('--facilities <ids>', 'facility ids the key may access, e.g. 1,2').argParser(
        parseFacilityIds,
      ),
    )
    .option('--all-facilities', 'the key may access every facility')
    .option('--create', 'create the SQLite database when it does not exist yet (before the first start)')
    .addOption(
      new Option(
        '--role <role>',
        'admin or owner: everything; manager: plans, members, policy, imports; front_desk: members, freezes, credentials; viewer: reads only; door: access decisions only (docs/security.md)',
      )
        .choices([...KEY_ROLES])
        .default('admin'),
    )
    .action(
      async (options: {
        name: string;
        facilities?: number[];
        allFacilities?: boolean;
        role: Role;
        create?: boolean;
      }) => {
        if ((options.facilities === undefined) === (options.allFacilities !== true)) {
          throw new InvalidArgumentError('give exactly one of --facilities <ids> or --all-facilities');
        }
        const { secret, key } = await withDatabase(
          (db) =>
            createApiKey(db, {
              name: options.name,
              role: options.role,
              facilityIds: options.facilities ?? 'all',
            }),
          options.create === true,
        );
        console.error(
          `created key ${key.id} "${key.name}" (${key.role}); store it now, it is not shown again`,
        );
        console.log(secret);
      },
    );

  keys
    .command('list')
    .description('list API keys (never their secrets)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const all = await withDatabase((db) => listApiKeys(db));
      if (options.json) {
        console.log(JSON.stringify(all, null, 2));
        return;
      }
      for (const key of all) {
        const scope =
          key.facilityIds === 'all' ? 'all facilities' : `facilities ${key.facilityIds.join(',')}`;
        const state = key.revokedAt ? `revoked ${key.revokedAt}` : 'active';
        console.log(`${key.id}\t${key.name}\t${key.role}\t${scope}\t${state}\tcreated ${key.createdAt}`);
      }
    });

  keys
    .command('revoke')
    .description('revoke an API key; it is refused from the next request on, on every instance')
    .argument('<id>', 'the key id shown by "keys list"')
    .action(async (id: string) => {
      if (!/^[1-9]\d{0,15}$/.test(id)) throw new InvalidArgumentError('the key id is a positive integer');
      const revoked = await withDatabase((db) => revokeKey(db, Number(id)));
      if (!revoked) {
        console.error(`no active key with id ${id}`);
        process.exitCode = 1;
        return;
      }
      console.error(`revoked key ${id}`);
    });
}
