// A table's rows as CSV (RFC 4180) or JSON, downloaded through a Blob and an object URL: fetched
// when a table's CSV or JSON button is first pressed (export.js makes the buttons).

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
 *  number or a lone "-") gets a leading apostrophe, as OWASP's CSV injection guidance says. */
export function toCsv(records) {
  const field = (v) => {
    let s = v === null || v === undefined ? '' : String(v);
    if (/^[=+\-@\t\r]/.test(s) && !/^([+-]?\d+(\.\d+)?|-)$/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return records.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

/** The rows as objects keyed by the column headers. */
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
