import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** What an engine is called, in a comparison that asks which one runs. */
const ENGINE_NAMES = new Set(['sqlite', 'postgres', 'postgresql']);
/** A name that holds which engine or dialect runs. */
const ENGINE_HOLDER = /dialect|engine/i;
/** A Kysely adapter class: testing for one asks which engine runs. */
const ADAPTER_CLASS = /Adapter$/;

/**
 * Files outside src/db that may still ask which engine runs, and why: each
 * reads the scheme of DATABASE_URL (parseDatabaseUrl), not a database's
 * engine. Each must still do so: an entry that no longer finds a branch
 * fails too, so the list cannot outlive its reasons.
 */
export const ALLOWED_ENGINE_BRANCHES: Record<string, string> = {
  'src/startup-failure.ts':
    "describes DATABASE_URL and explains why it could not be opened, in each engine's terms, before any database is open",
  'src/cli-database.ts': 'refuses a missing SQLite file named by DATABASE_URL before opening it',
  'src/infrastructure/secrets/secrets-key.ts':
    "keeps the secrets' key beside a SQLite file named by DATABASE_URL, which several PostgreSQL instances could not share",
};

/**
 * The places in a file that ask which engine runs: a call of dialectOf, a
 * comparison with an engine's name or of a value named dialect or engine
 * (also as a switch's case), and an instanceof of an adapter class.
 */
export function engineBranches(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${file}:${line + 1}: ${what}: ${node.getText(source).split('\n')[0]}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && nameOf(node.expression) === 'dialectOf') {
      report(node, 'asks which dialect runs');
    } else if (ts.isBinaryExpression(node) && isComparison(node.operatorToken.kind)) {
      if ([node.left, node.right].some(namesEngine)) report(node, 'compares the engine');
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) {
      if (ADAPTER_CLASS.test(nameOf(node.right) ?? '')) report(node, 'tests the adapter class');
    } else if (ts.isCaseClause(node) && isEngineName(node.expression)) {
      report(node, 'switches on the engine');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isComparison(kind: ts.SyntaxKind): boolean {
  return (
    kind === ts.SyntaxKind.EqualsEqualsEqualsToken ||
    kind === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
    kind === ts.SyntaxKind.EqualsEqualsToken ||
    kind === ts.SyntaxKind.ExclamationEqualsToken
  );
}

function namesEngine(side: ts.Expression): boolean {
  return isEngineName(side) || ENGINE_HOLDER.test(nameOf(side) ?? '');
}

function isEngineName(node: ts.Expression): boolean {
  return ts.isStringLiteralLike(node) && ENGINE_NAMES.has(node.text.toLowerCase());
}

/** The name an expression ends with: `dialect`, `database.dialect`, `api.dialect`, `dialectOf`. */
function nameOf(node: ts.Expression): string | undefined {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isParenthesizedExpression(node)) return nameOf(node.expression);
  return undefined;
}
