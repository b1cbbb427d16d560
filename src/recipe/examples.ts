import type { RecordedCall } from '../compare/calls.js';
import { setPath } from '../v1/field-map.js';
import type { DeclaredRecipe, RecipeStep } from './declared.js';
import { routeOfCall } from './recorded.js';

/**
 * One worked example per endpoint, made from a recorded call: the v1 call as the integration sent
 * it, then the v2 calls it became, as `curl` commands and as TypeScript over `fetch`. Credentials
 * are never in it (the record holds none; the commands read them from the environment), and every
 * value is the recorded one, secrets already replaced by the recorder.
 */

export interface WorkedExample {
  v1Curl: string;
  v2Curl: string[];
  typescript: string;
}

/** The request body a write step takes: each v2 field the endpoint's input rows fill, naming the v1 parameter it comes from. */
export function bodyTemplate(recipe: DeclaredRecipe): Record<string, unknown> | undefined {
  const body: Record<string, unknown> = {};
  for (const field of recipe.input) {
    if (field.v2 === '(none)' || field.v1.includes(' + ')) continue;
    setPath(body, field.v2, `{{${field.v1}}}${field.how === 'same' ? '' : ` (${field.how})`}`);
  }
  return Object.keys(body).length ? body : undefined;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function v1Curl(call: RecordedCall): string {
  const fields = Object.entries(call.params).flatMap(([name, value]) =>
    (Array.isArray(value) ? value.map((v) => [`${name}[]`, v] as const) : [[name, value] as const]).map(
      ([n, v]) => `--data-urlencode ${quote(`${n}=${v}`)}`,
    ),
  );
  return [`curl -sS -X POST "$V1_BASE_URL/v1${call.path}"`, '-d api_key="$V1_API_KEY" -d api_secret="$V1_API_SECRET"', ...fields].join(
    ' \\\n  ',
  );
}

interface ExampleStep {
  method: string;
  path: string;
  writes: boolean;
}

/** The v2 calls of the example: as recorded when the record kept them, else the declared steps with their templates. */
function exampleSteps(call: RecordedCall, recipe: DeclaredRecipe): ExampleStep[] {
  if (call.v2Calls.length) {
    return call.v2Calls.map((v2) => ({
      method: v2.method,
      path: v2.path.split('?')[0]!,
      writes: !(routeOfCall(v2)?.reads ?? v2.method === 'GET'),
    }));
  }
  return recipe.steps.map((step: RecipeStep) => ({ method: step.method, path: step.path, writes: !step.reads }));
}

export function workedExample(call: RecordedCall, recipe: DeclaredRecipe): WorkedExample {
  const body = bodyTemplate(recipe);
  const steps = exampleSteps(call, recipe);
  const bodyOf = (step: ExampleStep) => (step.writes && step.method !== 'DELETE' && body ? JSON.stringify(body, null, 2) : undefined);
  const v2Curl = steps.map((step) => {
    const json = bodyOf(step);
    const parts = [`curl -sS -X ${step.method} "$V2_BASE_URL${step.path}"`, '-H "Authorization: Bearer $V2_ACCESS_TOKEN"'];
    if (json) parts.push('-H "Content-Type: application/json"', `--data ${quote(json)}`);
    return parts.join(' \\\n  ');
  });
  const typescript = [
    `const v2 = async (method: string, path: string, body?: unknown) => {`,
    `  const answer = await fetch(\`\${process.env.V2_BASE_URL}\${path}\`, {`,
    `    method,`,
    `    headers: { authorization: \`Bearer \${process.env.V2_ACCESS_TOKEN}\`, 'content-type': 'application/json' },`,
    `    body: body === undefined ? undefined : JSON.stringify(body),`,
    `  });`,
    `  if (!answer.ok) throw new Error(\`\${method} \${path}: \${answer.status} \${await answer.text()}\`);`,
    `  return answer.status === 204 ? undefined : answer.json();`,
    `};`,
    ...steps.map((step) => {
      const json = bodyOf(step);
      return `await v2(${JSON.stringify(step.method)}, ${JSON.stringify(step.path)}${json ? `, ${json.replace(/\n/g, '\n  ')}` : ''});`;
    }),
  ].join('\n');
  return { v1Curl: v1Curl(call), v2Curl, typescript };
}
