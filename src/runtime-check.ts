/**
 * Refuses an unsupported Node before anything loads a native module: on Node 20
 * better-sqlite3 13 crashes the process instead of failing with a message.
 * Imported first by every entry point; keep it free of imports.
 */
const SUPPORTED = '22.19 or later on the 22 line, 24, or 26 and later';

const [major, minor] = process.versions.node.split('.').map(Number);
const supported = (major === 22 && minor >= 19) || major === 24 || major >= 26;
if (!supported) {
  process.stderr.write(
    `facility-admin: Node ${process.versions.node} is not supported (needs ${SUPPORTED}); ` +
      'run it through npm (npm start, npm test, npx facility-admin), which uses the Node 26 the project installs in node_modules/.bin, or install a supported Node.\n',
  );
  process.exit(1);
}
