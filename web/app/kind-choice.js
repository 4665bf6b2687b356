// The kind of accelerator a deployment sized for the demand uses (GPU, Trainium, Inferentia,
// CPU), chosen at the top of the landing view. The link key is Deployments' `kinds` (its first
// kind here), so that a link names the kind the same way for either view.
import { selectControl } from './controls.js';
import { KIND_NAMES } from './names.js';
import { own } from './link.js';

export function kindChoice(prefix) {
  const c = selectControl({
    id: `${prefix}-kind`, key: 'kinds', label: 'Accelerator', def: 'gpu',
    fill: (store) => (store.state?.data?.request?.values?.kinds ?? []).map((k) => ({ value: k, label: own(KIND_NAMES, k) ?? k })),
  });
  const fromParams = c.fromParams;
  // A Deployments link may list several kinds: the first is the one sized here.
  c.fromParams = (p) => {
    const first = p.get('kinds')?.split(',')[0];
    fromParams(first ? new URLSearchParams({ kinds: first }) : new URLSearchParams());
  };
  // GPU, the usual answer, goes without saying in a link.
  c.toParams = (p) => { if (c.input.value && c.input.value !== 'gpu') p.set('kinds', c.input.value); };
  c.path = '/kinds';
  return c;
}
