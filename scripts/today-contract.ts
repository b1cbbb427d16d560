import { writeFileSync } from 'node:fs';
import { renderTodayContract, TODAY_TABLE_FILE } from './today-contract-render.js';

/** `npm run today-contract`: regenerate src/v2-contract/v2-today.ts from today's published v2 documents. */
writeFileSync(TODAY_TABLE_FILE, await renderTodayContract());
console.log(`wrote ${TODAY_TABLE_FILE}`);
