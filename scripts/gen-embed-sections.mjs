// Writes docs/page.md's table of the sections an embed can choose (compact=verdict,cost), between
// its markers, from web/app/sections.js, the list the page itself reads. With --check, writes
// nothing and fails when the table differs (tests/web/sections.test.mjs runs the check).
//   node scripts/gen-embed-sections.mjs [--check]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECTIONS } from '../web/app/sections.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const doc = path.join(root, 'docs/page.md');
const begin = '<!-- embed sections: begin -->';
const end = '<!-- embed sections: end -->';

export function sectionsTable() {
  const rows = SECTIONS.map((s) => `  | \`${s.id}\` | ${s.views.join(', ')} | ${s.text} |`);
  return ['  | section | views | what it shows |', '  | --- | --- | --- |', ...rows].join('\n');
}

export function wanted(text = fs.readFileSync(doc, 'utf8')) {
  const a = text.indexOf(begin) + begin.length;
  const b = text.indexOf(end);
  return `${text.slice(0, a)}\n${sectionsTable()}\n  ${text.slice(b)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = fs.readFileSync(doc, 'utf8');
  if (process.argv.includes('--check')) {
    if (wanted(text) !== text) {
      console.error("gen-embed-sections: docs/page.md's sections table is not web/app/sections.js's; run node scripts/gen-embed-sections.mjs");
      process.exit(1);
    }
  } else {
    fs.writeFileSync(doc, wanted(text));
    console.log("wrote docs/page.md's sections table");
  }
}
