import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ERROR_TEXTS, type ErrorText } from '../../mappings/error-texts.js';
import { V1Code } from '../../src/v1/errors.js';
import { escapeRegExp, PLACEHOLDER } from './error-text.js';

/**
 * Every place in src/ that writes the words of a v1 error: a `new V1Error(code, message)`, a
 * `new Refusal(kind, message)`, or a carrier below, whose message is a literal, a template (each
 * `${…}` a value the row's `<placeholder>` stands for), either branch of a `?:`, or a constant in
 * scope. Read from the syntax tree, so layout and quoting do not matter. A message handed on from
 * elsewhere (another error's text, a parameter) is not written there: its words are checked where
 * they are written, or by the calls test/gateway/error-texts.test.ts drives. The sandbox is left
 * out: it writes v2's texts, not v1gate's.
 */

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * What writes a v1 error's words besides `V1Error` and `Refusal`: errors whose message becomes a
 * refusal's whole text (`src/v1-steps/unread.ts`), and the transport's writer of an envelope to a
 * bare socket. `message` is the argument that holds the words.
 */
const CARRIERS: Record<string, { constructed: boolean; message: number; kind: string }> = {
  BodyReadError: { constructed: true, message: 1, kind: 'unreadable-body' },
  ParamDecodeError: { constructed: true, message: 0, kind: 'undecodable-params' },
  endWithEnvelope: { constructed: false, message: 2, kind: 'malformed-request' },
};
/** Where a template interpolates a value. */
export const HOLE = '\u0000';

export interface V1ErrorSite {
  where: string;
  /** The message with each interpolated value as a hole. */
  text: string;
  /** The refusal's kind, when it is a `Refusal`. */
  kind?: string;
  /** The v1 code, when it is written as `V1Code.<name>`. */
  code?: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'sandbox' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The initializer of the `const` an identifier names, in the scopes around it; none for a parameter or another file's. */
function constantOf(identifier: ts.Identifier): ts.Expression | undefined {
  const name = identifier.text;
  for (let node: ts.Node | undefined = identifier.parent; node; node = node.parent) {
    if (ts.isFunctionLike(node) && node.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === name)) return undefined;
    if (!ts.isBlock(node) && !ts.isSourceFile(node)) continue;
    for (const statement of node.statements) {
      if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
      const declaration = statement.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name);
      if (declaration) return declaration.initializer;
    }
  }
  return undefined;
}

/** The texts an expression may be, holes for its values; none when no words are written in it. */
function textsOf(expression: ts.Expression, depth = 0): string[] {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return [expression.text];
  if (ts.isParenthesizedExpression(expression)) return textsOf(expression.expression, depth);
  if (ts.isConditionalExpression(expression)) return [...textsOf(expression.whenTrue, depth), ...textsOf(expression.whenFalse, depth)];
  if (ts.isTemplateExpression(expression)) {
    const text = expression.head.text + expression.templateSpans.map((span) => HOLE + span.literal.text).join('');
    return text.replaceAll(HOLE, '').trim() === '' ? [] : [text];
  }
  const constant = ts.isIdentifier(expression) && depth < 5 ? constantOf(expression) : undefined;
  return constant ? textsOf(constant, depth + 1) : [];
}

/** The code a `V1Code.<name>` argument names; none for a code handed on (`failure.code`). */
function codeOf(expression: ts.Expression | undefined): number | undefined {
  if (!expression || !ts.isPropertyAccessExpression(expression) || expression.expression.getText() !== 'V1Code') return undefined;
  return V1Code[expression.name.text as keyof typeof V1Code];
}

/** What a node writes: the message argument, the refusal kind it is answered as (none for a `V1Error`), the code given. */
function writerOf(node: ts.Node): { message: ts.Expression | undefined; kind?: string; code?: ts.Expression } | undefined {
  if (!(ts.isNewExpression(node) || ts.isCallExpression(node)) || !ts.isIdentifier(node.expression)) return undefined;
  const callee = node.expression.text;
  const constructed = ts.isNewExpression(node);
  const args = node.arguments ?? [];
  if (constructed && callee === 'V1Error') return { message: args[1], code: args[0] };
  if (constructed && callee === 'Refusal') {
    const kind = args[0] && ts.isStringLiteral(args[0]) ? args[0].text : undefined;
    return { message: args[1], ...(kind ? { kind } : {}) };
  }
  const carrier = CARRIERS[callee];
  return carrier?.constructed === constructed ? { message: args[carrier.message], kind: carrier.kind } : undefined;
}

export function v1ErrorSites(): V1ErrorSite[] {
  const sites: V1ErrorSite[] = [];
  for (const path of sourceFiles(join(ROOT, 'src'))) {
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      const writer = writerOf(node);
      if (writer?.message) {
        const where = `${relative(ROOT, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        const code = codeOf(writer.code);
        for (const text of textsOf(writer.message))
          sites.push({ where, text, ...(writer.kind ? { kind: writer.kind } : {}), ...(code === undefined ? {} : { code }) });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return sites;
}

/** A row's text as a pattern that any value (or hole) fills each placeholder of. */
function rowPattern(row: ErrorText): RegExp {
  const words = row.text.split(PLACEHOLDER).map(escapeRegExp);
  return new RegExp(`^${words.join('.+')}$`, 's');
}

/** Whether `row` words `site`: its text, the refusal's kind among the row's, its code the row's. */
function words(row: ErrorText, site: V1ErrorSite): boolean {
  if (!rowPattern(row).test(site.text.replaceAll(HOLE, '<value>'))) return false;
  if (site.kind !== undefined && !(row.kinds as readonly string[]).includes(site.kind)) return false;
  return site.code === undefined || row.code === 'kept' || row.code === site.code;
}

/** The sites (every one in src/ unless given) whose words no row of the evidence table holds, each as `file:line "text"`. */
export function v1ErrorsOutsideTheTable(sites: readonly V1ErrorSite[] = v1ErrorSites()): string[] {
  const rows: ErrorText[] = Object.values(ERROR_TEXTS);
  return sites
    .filter((site) => !rows.some((row) => words(row, site)))
    .map((site) => `${site.where} ${JSON.stringify(site.text.replaceAll(HOLE, '${…}'))}${site.kind ? ` (${site.kind})` : ''}`);
}
