// {ok:false} answers: an alert region listing code, file, JSON path and message of each error.
import { h, clear } from './dom.js';

/** A role="alert" region that stays in the page; show() fills it, hide() empties it. */
export function alertRegion(testid = 'errors') {
  const node = h('div', { class: 'alert', role: 'alert', testid, hidden: true });
  return {
    node,
    show(errors, title = 'The analyzer could not answer') {
      clear(node,
        h('p', { class: 'alert-title' }, title),
        h('ul', { class: 'error-list' }, errors.map((e) => h('li', { class: 'error', testid: 'error' },
          h('code', { class: 'error-code', testid: 'error-code' }, e.code || 'error'), ' ',
          h('span', { class: 'error-where' },
            'in ', h('strong', { testid: 'error-file' }, e.file || 'request'),
            ' at ', h('code', { testid: 'error-path' }, e.path === '' || e.path === undefined ? '/' : e.path),
            e.path === '' ? ' (the whole document)' : ''),
          ': ', h('span', { testid: 'error-message' }, e.message)))));
      node.hidden = false;
    },
    hide() { node.hidden = true; node.replaceChildren(); },
  };
}
