import type { Command } from 'commander';
import { openCommandDatabase } from './cli-database.js';
import { loadConfig } from './config.js';
import { commandLineWriteContext } from './core/write-context.js';
import { migrateToLatest } from './db/migrate.js';
import { findStaffByEmail } from './modules/staff/staff.repository.js';
import { inviteStaff } from './modules/staff/staff.service.js';

/** `facility-admin staff create-owner`: the first owner (or another) from the command line. */
export function registerStaffCommands(program: Command): void {
  const staff = program.command('staff').description('manage staff users (people of the console)');
  staff
    .command('create-owner')
    .description('invite an owner of every facility and print the one-time link that sets their password')
    .requiredOption('--email <email>', "the person's e-mail address")
    .option('--name <name>', "the person's name (default: the e-mail's local part)")
    .action(async (options: { email: string; name?: string }) => {
      const config = loadConfig();
      const database = openCommandDatabase(config, { create: true, createHint: '' });
      try {
        await migrateToLatest(database.db);
        if (await findStaffByEmail(database.db, options.email)) {
          throw new Error(`a staff user with the e-mail ${options.email} exists already`);
        }
        const base = config.people.publicUrl ?? `http://127.0.0.1:${config.port}${config.basePath}`;
        const user = await inviteStaff(
          database.db,
          commandLineWriteContext(new Date()),
          {
            linkUrl: (purpose, secret) => `${base}/console/#/link?purpose=${purpose}&token=${secret}`,
            validMs: {
              invitation: config.people.invitationValidMs,
              password_reset: config.people.passwordResetValidMs,
            },
          },
          {
            email: options.email,
            name: options.name ?? options.email.split('@')[0],
            roles: [{ facility_id: null, role: 'owner' }],
          },
        );
        console.error(
          `invited ${user.email} as owner of every facility (staff user ${user.id}); the link works once, until ${user.invitation?.expires_at}:`,
        );
        console.log(user.invitation?.url);
      } finally {
        await database.close();
      }
    });
}
