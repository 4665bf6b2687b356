// The consistency suite's interpreter (tests/data/consistency/setups.json; docs/road.md, "The
// consistency suite"). tests/unit/consistency_test.cpp interprets the same file the same way.
// run(doc, ask) asks every setup its questions through ask(request) -> response and returns one
// row per setup x comparison: {setup, comparison, status, a, b, reason}, status one of
// pass, fail (or a question refused with another code than cannot_answer), known (a known disagreement, not asserted), agrees_now (known but agreeing),
// not_applicable (kind, condition, question not asked, or both sides missing).

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

export function pointer(doc, ptr) {
  if (ptr === '') return doc;
  let v = doc;
  for (const raw of ptr.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v)) {
      if (!/^\d+$/.test(key) || Number(key) >= v.length) return undefined;
      v = v[Number(key)];
    } else if (isObject(v)) {
      if (!Object.prototype.hasOwnProperty.call(v, key)) return undefined;
      v = v[key];
    } else return undefined;
  }
  return v;
}

function lookup(doc, setup, name) {
  const task = doc.tasks[setup.task] ?? {};
  for (const source of [setup, task, doc.defaults]) {
    if (Object.prototype.hasOwnProperty.call(source, name)) return source[name] ?? undefined;
  }
  return undefined;
}

function reference(ref, answers) {
  const colon = ref.indexOf(':');
  const answer = answers[ref.slice(0, colon)];
  return answer === undefined ? undefined : pointer(answer, ref.slice(colon + 1));
}

// A template filled in; undefined when an answer it refers to is missing (the question is not asked).
function fill(template, doc, setup, answers) {
  let missingAnswer = false;
  const walk = (t) => {
    if (typeof t === 'string' && t.startsWith('$')) return lookup(doc, setup, t.slice(1));
    if (typeof t === 'string' && t.startsWith('@')) {
      const v = reference(t.slice(1), answers);
      if (v === undefined || v === null) missingAnswer = true;
      return v ?? undefined;
    }
    if (Array.isArray(t)) return t.map(walk).filter((v) => v !== undefined);
    if (isObject(t)) {
      const out = {};
      for (const [k, v] of Object.entries(t)) {
        const filled = walk(v);
        if (filled !== undefined) out[k] = filled;
      }
      return Object.keys(t).length > 0 && Object.keys(out).length === 0 ? undefined : out;
    }
    return t;
  };
  const request = walk(template);
  return missingAnswer ? undefined : request;
}

function side(refs, scale, answers) {
  const list = Array.isArray(refs) ? refs : [refs];
  const values = list.map((r) => reference(r, answers));
  if (values.some((v) => v === undefined || v === null)) return values.length === 1 ? values[0] ?? null : null;
  if (values.length === 1 && scale === undefined) return values[0];
  if (values.some((v) => typeof v !== 'number')) return null;
  return values.reduce((a, b) => a * b, 1) * (scale ?? 1);
}

const equal = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const round = (v) => (typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v);

export function agree(a, b, c) {
  if (typeof a === 'number' && typeof b === 'number') {
    const diff = Math.abs(a - b);
    if (c.abs !== undefined && diff <= c.abs + 1e-9) return true;
    if (c.rel !== undefined && diff <= c.rel * Math.max(Math.abs(a), Math.abs(b)) + 1e-12) return true;
    return diff === 0;
  }
  return equal(a, b);
}

export function run(doc, ask) {
  return doc.setups.flatMap((setup) => runSetup(doc, setup, ask));
}

export function runSetup(doc, setup, ask) {
  const rows = [];
  {
    const kind = doc.tasks[setup.task]?.kind;
    if (kind === undefined) throw new Error(`setup ${setup.id}: unknown task ${setup.task}`);
    const answers = {};
    const errors = {};
    for (const q of doc.questions) {
      if (!q.kinds.includes(kind) || (setup.not_expressible ?? {})[q.name] !== undefined) continue;
      const request = fill(q.request, doc, setup, answers);
      if (request === undefined) continue;
      const response = ask(request);
      // A refusal (cannot_answer) is an answer: its verdict is /ok false. Any other error is a fault.
      if (response.ok || response.errors?.[0]?.code === 'cannot_answer') answers[q.name] = response;
      else errors[q.name] = `${JSON.stringify(request)} -> ${JSON.stringify(response.errors)}`;
    }
    for (const c of doc.comparisons) {
      const row = { setup: setup.id, comparison: c.id, status: 'not_applicable' };
      rows.push(row);
      if (!c.kinds.includes(kind)) continue;
      const refs = [c.a, c.b].flat();
      const asked = [...new Set(refs.map((r) => r.slice(0, r.indexOf(':'))))];
      const failed = asked.filter((q) => errors[q] !== undefined);
      if (failed.length > 0) {
        Object.assign(row, { status: 'fail', reason: `asked, refused: ${failed.map((q) => errors[q]).join('; ')}` });
        continue;
      }
      if (asked.some((q) => answers[q] === undefined)) {
        row.reason = 'a question was not asked';
        continue;
      }
      const refused = asked.filter((q) => !answers[q].ok);
      if (refused.length > 0 && !refs.some((r) => r.endsWith(':/ok'))) {
        row.reason = `refused by ${refused.join(', ')} (a verdict comparison covers it)`;
        continue;
      }
      if ((c.when ?? []).some(([x, y]) => !equal(reference(x, answers), reference(y, answers)))) {
        row.reason = 'condition not met';
        continue;
      }
      const a = side(c.a, c.scale_a, answers);
      let b = side(c.b, c.scale_b, answers);
      if ((b === undefined || b === null) && c.b_else !== undefined) b = side(c.b_else, undefined, answers);
      Object.assign(row, { a: round(a ?? null), b: round(b ?? null) });
      if ((a === undefined || a === null) && (b === undefined || b === null)) {
        row.reason = 'neither reports it';
        continue;
      }
      const ok = agree(a ?? null, b ?? null, c);
      const known = (setup.known_disagreements ?? {})[c.id];
      row.status = known !== undefined ? (ok ? 'agrees_now' : 'known') : ok ? 'pass' : 'fail';
      if (known !== undefined) row.reason = known;
    }
  }
  return rows;
}
