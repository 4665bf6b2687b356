// The Deploy panel's zip of every file: fflate's zipSync (npm, bundled into this chunk by
// scripts/stage-site.sh like the page's other modules; fetched on the first press only).
import { strToU8, zipSync } from 'fflate';

export function zipFiles(files) {
  const tree = {};
  for (const f of files) tree[`gpufleet-deploy/${f.name}`] = strToU8(f.content);
  return zipSync(tree, { level: 6 });
}
