// Preloaded with `node --import` (NODE_OPTIONS) into a gateway process: writes the URL of every
// module the process resolves through `import` to the file named by V1GATE_TEST_MODULE_LOG, so a
// test can tell which packages a gateway loaded. The same file is the hooks module, run by Node
// on its hooks thread.
import { appendFileSync } from 'node:fs';
import { env } from 'node:process';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && env.V1GATE_TEST_MODULE_LOG) {
  register(import.meta.url, { data: env.V1GATE_TEST_MODULE_LOG });
}

let file;

export function initialize(data) {
  file = data;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (file) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
