// A table's answer data as CSV (RFC 4180) or JSON, downloaded through a Blob and an object URL:
// fetched when a table's CSV or JSON button is first pressed (export.js makes the buttons). A table
// made with the answer's records exports those (one value per cell, the answer's JSON keys as
// column names, numbers unformatted); one without them exports its visible text.

/** One answer record as flat [key, value] pairs: nested objects join their keys with ".", a list
 *  of plain values becomes one "; "-separated cell, a list of objects one JSON cell. */
export function flatten(record, prefix = '', out = []) {
  for (const [k, v] of Object.entries(record ?? {})) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (Array.isArray(v)) out.push([key, v.every((x) => x === null || typeof x !== 'object') ? v.join('; ') : JSON.stringify(v)]);
    else if (v !== null && typeof v === 'object') flatten(v, key, out);
    else out.push([key, v]);
  }
  return out;
}

/** {head, rows} of answer records: every key any record has, in the order first met; a key a
 *  record lacks, and a null, is an empty cell. */
export function recordsData(records) {
  const flat = records.map((r) => new Map(flatten(r)));
  const head = [...new Set(flat.flatMap((m) => [...m.keys()]))];
  return { head, rows: flat.map((m) => head.map((k) => m.get(k) ?? '')) };
}

/** The visible text of a cell: <br> and block children separate words, whitespace collapses. */
export function cellText(node) {
  let out = '';
  const walk = (n) => {
    if (n.nodeType === Node.TEXT_NODE) { out += n.textContent; return; }
    if (n.nodeType !== Node.ELEMENT_NODE) return;
    const tag = n.tagName.toLowerCase();
    if (tag === 'br') { out += ' '; return; }
    if (n.classList?.contains('sr-only') || tag === 'svg' || tag === 'button') return;
    const block = ['div', 'p', 'li', 'ul', 'ol'].includes(tag);
    if (block) out += ' ';
    for (const c of n.childNodes) walk(c);
    if (block) out += ' ';
  };
  walk(node);
  return out.replace(/\s+/g, ' ').trim();
}

/** {head: [..], rows: [[..]]} of a <table>: the last header row, and every body row that is not
 *  a detail row (reasons and basis shown under the row they explain). */
export function tableData(table) {
  const headRows = table.tHead ? [...table.tHead.rows] : [];
  const head = headRows.length ? [...headRows[headRows.length - 1].cells].map(cellText) : [];
  const rows = [];
  for (const body of table.tBodies) {
    for (const tr of body.rows) {
      if (tr.classList.contains('detail-row')) continue;
      rows.push([...tr.cells].map(cellText));
    }
  }
  return { head, rows };
}

/** RFC 4180: CRLF line ends; a field with a comma, quote, CR or LF is quoted, quotes doubled. A
 *  text a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR, and not a plain
 *  number or a lone "-") gets a leading apostrophe, as OWASP's CSV injection guidance says; a
 *  number of the answer is written as it is. */
export function toCsv(records) {
  const field = (v) => {
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    let s = v === null || v === undefined ? '' : String(v);
    if (/^[=+\-@\t\r]/.test(s) && !/^([+-]?\d+(\.\d+)?|-)$/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return records.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

/** The rows as objects keyed by the column headers (the records themselves where the table has them). */
export function toJson({ head, rows }) {
  const keys = head.map((k, i) => k || `column ${i + 1}`);
  return JSON.stringify(rows.map((r) => Object.fromEntries(keys.map((k, i) => [k, r[i] ?? '']))), null, 2) + '\n';
}

export function download(filename, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
