// The Deploy panel's files (deploy-panel.js): a target picker, the file shown with Copy and
// Download, and a zip of every target (deploy-zip.js, fetched on the first press). Fetched when a
// panel is first opened: the page's first download does not carry it.
// The page's own helpers (dom.js's h, export.js's copyText) come as arguments: imported here,
// they would be split out of the page's first chunk into one more file to fetch.
import { download } from './table-export.js';

const LABELS = {
  kubernetes: 'Kubernetes', keda: 'KEDA', hpa: 'HPA', karpenter: 'Karpenter', eksctl: 'eksctl', gke_compute_class: 'GKE ComputeClass',
  terraform: 'Terraform', ecs: 'ECS', skypilot: 'SkyPilot', infracost: 'Infracost',
};

const baseName = (name) => name.split('/').pop();

export function filesView(result, status, id, { h, copyText }) {
  const files = result.files;
  const targets = [...new Set(files.map((f) => f.target))];
  const picker = h('select', { id: `${id}-target`, testid: 'deploy-target' },
    targets.map((t) => h('option', { value: t }, LABELS[t] ?? t)));
  const fileSelect = h('select', { id: `${id}-file`, testid: 'deploy-file', 'aria-label': 'File' });
  const pre = h('pre', { class: 'request', testid: 'deploy-content', tabindex: '0', 'aria-label': 'Generated file' });
  const current = () => files.find((f) => f.name === fileSelect.value) ?? files[0];
  const showFile = () => { pre.textContent = current().content; };
  const showTarget = () => {
    fileSelect.replaceChildren(...files.filter((f) => f.target === picker.value).map((f) => h('option', { value: f.name }, f.name)));
    showFile();
  };
  picker.addEventListener('change', showTarget);
  fileSelect.addEventListener('change', showFile);
  const say = (text) => { status.textContent = text; };
  const copy = h('button', { type: 'button', class: 'small-button', testid: 'deploy-copy' }, 'Copy');
  copy.addEventListener('click', async () => say((await copyText(current().content)) ? `Copied ${current().name}` : 'Copy failed: select the text'));
  const save = h('button', { type: 'button', class: 'small-button', testid: 'deploy-download' }, 'Download');
  save.addEventListener('click', () => download(baseName(current().name), current().media_type, current().content));
  const zip = h('button', { type: 'button', class: 'small-button', testid: 'deploy-zip' }, 'Download all (zip)');
  zip.addEventListener('click', async () => {
    const { zipFiles } = await import('./deploy-zip.js');
    download('gpufleet-deploy.zip', 'application/zip', zipFiles(files));
    say(`Zipped ${files.length} files`);
  });
  const refused = result.targets.filter((t) => !t.applies).map((t) => `${LABELS[t.target] ?? t.target}: ${t.reason}`)
    .concat((result.left_out ?? []).map((l) => `${LABELS[l.target] ?? l.target} for ${l.deployment}: ${l.reason}`));
  showTarget();
  return [
    h('div', { class: 'field-row' },
      h('div', { class: 'field' }, h('label', { for: `${id}-target` }, 'Target'), picker),
      h('div', { class: 'field' }, h('label', { for: `${id}-file` }, 'File'), fileSelect)),
    pre,
    h('div', { class: 'table-tools' }, copy, save, zip),
    refused.length
      ? h('details', { class: 'why-details', testid: 'deploy-refused' }, h('summary', null, `${refused.length} files not written`),
        h('ul', null, refused.map((text) => h('li', null, text))))
      : null,
  ];
}
