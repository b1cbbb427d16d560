import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderConfiguration } from '../src/cli/configuration-doc.js';

/** `npm run docs`: regenerate docs/configuration.md from the settings' schemas. */
const target = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
writeFileSync(target, renderConfiguration());
console.log(`wrote ${target}`);
