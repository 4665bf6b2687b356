// The Deploy panel (issue 36, docs/deploy.md): the deployment a view shows, written as files by the
// core's deploy question. A target picker, the file shown with Copy and Download, and a zip of
// every target (deploy-zip.js, fetched on the first press). Asked when the panel is first opened:
// no answer waits for it.
import { h } from './dom.js';
import { live } from './in-place.js';
import * as f from './format.js';
import { copyText } from './export.js';

const LABELS = {
  kubernetes: 'Kubernetes', keda: 'KEDA', hpa: 'HPA', karpenter: 'Karpenter', eksctl: 'eksctl', gke_compute_class: 'GKE ComputeClass',
  terraform: 'Terraform', ecs: 'ECS', skypilot: 'SkyPilot', infracost: 'Infracost',
};

export function download(filename, type, data) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = h('a', { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

const baseName = (name) => name.split('/').pop();

let panels = 0;  // each panel's own element ids: a view may show two (Deployments and its Decide)

function filesView(result, status, id) {
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

/** A closed "Deploy" section for the deployment `from` (a fit, recommend, migrate, autoscale, spot,
 *  placement, decide, regions or plan request) asks for; `extra`: deploy's other fields (a candidate, a
 *  packing); `note`: what the files are of, when it is not the view's answer itself. */
export function deployPanel(ask, from, extra = {}, note = null) {
  const body = h('div', { testid: 'deploy-body' }, h('p', { class: 'muted small' }, 'Writing the files…'));
  const status = h('p', { class: 'muted small', role: 'status', testid: 'deploy-status' });
  const panel = live(h('details', { class: 'card deploy-panel', testid: 'deploy-panel' },
    h('summary', null, h('h3', { class: 'inline' }, 'Deploy')),
    h('p', { class: 'muted small' }, 'This deployment as files to apply; every number is commented with the figure it came from.'),
    note ? h('p', { class: 'muted small', testid: 'deploy-note' }, note) : null,
    body, status));
  let asked = false;
  const id = panels++ ? `deploy-${panels}` : 'deploy';
  panel.addEventListener('toggle', async () => {
    if (!panel.open || asked) return;
    asked = true;
    let answer;
    try {
      answer = await ask({ question: 'deploy', target: 'all', from, ...extra });
    } catch {
      // The question was dropped (the catalog changed, its worker replaced): asked again on the next opening.
      asked = false;
      panel.open = false;
      body.replaceChildren(h('p', { class: 'muted small' }, 'Writing the files…'));
      return;
    }
    const { response, errors } = answer;
    if (errors) body.replaceChildren(h('p', { class: 'error' }, f.sentence(errors.map((e) => e.message).join('; '))));
    else body.replaceChildren(...filesView(response.result, status, id));
  });
  return panel;
}
