// The Deploy panel (issue 36, docs/deploy.md): the deployment a view shows, written as files by the
// core's deploy question, shown by deploy-files.js. Asked when the panel is first opened: no
// answer waits for it.
import { h } from './dom.js';
import { live } from './in-place.js';
import * as f from './format.js';
import { copyText } from './export.js';

let panels = 0;  // each panel's own element ids: a view may show two (Deployments and its Decide)

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
    let filesView;
    try {
      [answer, { filesView }] = await Promise.all([ask({ question: 'deploy', target: 'all', from, ...extra }), import('./deploy-files.js')]);
    } catch {
      // The question was dropped (the catalog changed, its worker replaced) or the files' module did
      // not arrive: asked again on the next opening.
      asked = false;
      panel.open = false;
      body.replaceChildren(h('p', { class: 'muted small' }, 'Writing the files…'));
      return;
    }
    const { response, errors } = answer;
    if (errors) body.replaceChildren(h('p', { class: 'error' }, f.sentence(errors.map((e) => e.message).join('; '))));
    else body.replaceChildren(...filesView(response.result, status, id, { h, copyText }));
  });
  return panel;
}
