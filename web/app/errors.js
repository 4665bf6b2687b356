// {ok:false} answers: an alert region listing code, file, JSON path and message of each error.
import { h, clear } from './dom.js';

/** A role="alert" region that stays in the page; show() fills it, hide() empties it. */
export function alertRegion(testid = 'errors') {
  const node = h('div', { class: 'alert', role: 'alert', testid, hidden: true });
  return {
    node,
    show(errors, title = 'The analyzer could not answer', note = '') {
      clear(node,
        h('p', { class: 'alert-title' }, title),
        note ? h('p', { class: 'alert-note', testid: 'alert-note' }, note) : null,
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

/** The fields an error's JSON path points at: each control's input (its `path`, or each of its
 *  `paths` where questions put its value in different places) and inner fields. */
const fieldsOf = (controls) => (controls?.controls ?? []).flatMap((c) => [
  ...(c.path && c.input ? [{ input: c.input, wrap: c.wrap, path: c.path, paths: c.paths, label: c.label }] : []),
  ...(c.fields ?? [])]);

/** "expected a number > 0 and <= 4096" at GPUs -> "GPUs must be a number more than 0 and at most 4096." */
export function plainMessage(label, e) {
  const m = String(e.message ?? '');
  if (e.file === 'page' || !/^expected /.test(m)) return e.file === 'page' ? m : `${label}: ${m}`;
  const words = m.replace(/^expected /, '').replace(/,? got \S+ (.*)$/, ' (you entered $1)').replace(/>=\s*/g, 'at least ').replace(/<=\s*/g, 'at most ')
    .replace(/>\s*/g, 'more than ').replace(/<\s*/g, 'less than ');
  return `${label} must be ${words}.`;
}

/** Marks each field an error points at (aria-invalid, its sentence beside it); clears the rest. */
export function markFields(controls, errors) {
  for (const f of fieldsOf(controls)) {
    const mine = errors.filter((e) => typeof e.path === 'string' && (f.paths ?? [f.path]).some((p) => e.path === p || e.path.startsWith(`${p}/`)));
    const id = `${f.input.id}-error`;
    let msg = f.wrap.querySelector(`#${CSS.escape(id)}`);
    const described = (f.input.getAttribute('aria-describedby') ?? '').split(' ').filter((x) => x && x !== id);
    if (!mine.length) {
      msg?.remove();
      f.input.removeAttribute('aria-invalid');
      if (described.length) f.input.setAttribute('aria-describedby', described.join(' '));
      else f.input.removeAttribute('aria-describedby');
      continue;
    }
    if (!msg) f.wrap.append(msg = h('p', { class: 'field-error', id, testid: id }));
    msg.textContent = mine.map((e) => plainMessage(f.label ?? 'This value', e)).join(' ');
    f.input.setAttribute('aria-invalid', 'true');
    f.input.setAttribute('aria-describedby', [...described, id].join(' '));
  }
}
