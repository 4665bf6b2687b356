// A link's values (?view=fit&size=small&providers=aws,gcp...) are text anyone can write. The page
// looks them up only among a table's own keys (never constructor, __proto__, toString or another
// member every object inherits), and reads a list value item by item: an item whose percent-escape
// is broken is kept as written and its field is marked (linkNote), while the rest of the link
// answers as usual.

/** table[key] when `key` is one of the table's own keys; undefined for any other text. */
export function own(table, key) {
  return typeof key === 'string' && table != null && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A '%' that does not start an escape of two hex digits: the link had a broken escape there
 *  (URLSearchParams leaves such a '%' as it is). */
const BROKEN = /%(?![0-9A-Fa-f]{2})/;

/** One item of a list value. `decode`: the item is percent-encoded once more (the placement's
 *  models): decoded, or kept as written when its escape is broken. Returns {text, broken}. */
export function readItem(item, { decode = false } = {}) {
  if (!decode) return { text: item, broken: BROKEN.test(item) };
  try {
    return { text: decodeURIComponent(item), broken: false };
  } catch {
    return { text: item, broken: true };
  }
}

/** The items of a comma-separated list value (empty items dropped, at most `max` read) and those
 *  whose escapes are broken: {items, broken}. */
export function readList(text, { max = Infinity } = {}) {
  const items = String(text ?? '').split(',').filter(Boolean).slice(0, max);
  return { items, broken: items.filter((item) => readItem(item).broken) };
}

/** The page error that marks a list field whose link value had broken escapes (its path is the
 *  link key: `?models`). `kept`: the items stay as written (else they match nothing and drop). */
export function linkNote(key, broken, { kept = false } = {}) {
  if (!broken.length) return [];
  const shown = broken.slice(0, 3).map((b) => `"${b.length > 40 ? `${b.slice(0, 40)}…` : b}"`).join(', ');
  const more = broken.length > 3 ? ` and ${broken.length - 3} more` : '';
  return [{ code: 'bad_escape', file: 'link', path: `?${key}`,
    message: `the link's ${key} value has a broken percent-escape in ${shown}${more}: ${kept ? 'kept as written' : 'left out'}. Check the link, or choose again here.` }];
}

/** A list field's link notes: set from the link, cleared once the field is changed by hand. The
 *  control spreads `fields` and `linkErrors` (screen.js marks the field, and still answers). */
let fieldsMade = 0;
export function linkNotes(key, wrap, label, { kept = false } = {}) {
  let broken = [];
  wrap.id ||= `link-${key}-${++fieldsMade}`;  // the sentence beside the field is found by it
  wrap.addEventListener('change', () => { broken = []; });
  wrap.addEventListener('input', () => { broken = []; });
  return {
    fields: [{ input: wrap, wrap, path: `?${key}`, label }],
    set(items) { broken = items; },
    linkErrors: () => linkNote(key, broken, { kept }),
  };
}
