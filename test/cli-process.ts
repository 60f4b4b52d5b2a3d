/**
 * Runs the `facility-admin` command as a user would, from any directory:
 * `node --import tsx <checkout>/src/cli.ts …`, and gives its exit code and
 * output whatever the code.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment starts from the test's, without the settings a test might
 * have exported, plus `env`.
 */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CommandResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'PORT', 'HOST', 'WORKERS', 'REDIS_URL', 'ADMIN_API_KEY', 'BASE_PATH']) {
    delete env[name];
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', TSX, CLI, ...args],
      {
        cwd: options.cwd,
        env: { ...env, LOG_LEVEL: 'warn', ...options.env },
        // Stops a command that hangs; generous, since loading the sources takes long on a busy machine.
        timeout: options.timeoutMs ?? 120_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Lines that look like a JavaScript stack trace. */
export const STACK_LINE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;
