import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REFERENCE_BEGIN, REFERENCE_END, settingsReference } from './reference.js';

/** `npm run docs:settings`: rewrites the settings reference in docs/configuration.md from the registry. */
const doc = fileURLToPath(new URL('../../../../docs/configuration.md', import.meta.url));
const text = readFileSync(doc, 'utf8');
const begin = text.indexOf(REFERENCE_BEGIN);
const end = text.indexOf(REFERENCE_END);
if (begin < 0 || end < begin) throw new Error(`${doc} lacks the reference markers`);
writeFileSync(doc, text.slice(0, begin) + settingsReference() + text.slice(end + REFERENCE_END.length));
console.log(`wrote the settings reference in ${doc}`);
