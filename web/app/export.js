// Export: CSV and JSON buttons under any table (what they download is table-export.js, fetched on
// the first press); and the page's link copied to the clipboard. No dependency on the screens.

const slug = (s) => String(s || 'table').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'table';

/** "Download CSV" and "Download JSON" buttons for one table; records: the answer's objects the
 *  table shows (one per row), exported instead of the table's text. */
export function exportTools(table, name, records) {
  const file = `gpufleet-${slug(name)}`;
  const button = (label, kind, testid) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'small-button';
    b.textContent = label;
    b.setAttribute('aria-label', `${label}: ${name}`);
    if (testid) b.dataset.testid = testid;
    b.addEventListener('click', async () => {
      const { tableData, recordsData, toCsv, toJson, download } = await import('./table-export.js');
      // The table beside the button: an answer drawn in place keeps the one on screen.
      const data = records ? recordsData(records) : tableData(b.closest('.table-block')?.querySelector('table') ?? table);
      if (kind === 'csv') download(`${file}.csv`, 'text/csv;charset=utf-8', toCsv([data.head, ...data.rows]));
      else download(`${file}.json`, 'application/json', records ? `${JSON.stringify(records, null, 2)}\n` : toJson(data));
    });
    return b;
  };
  const tid = table.dataset.testid;
  const tools = document.createElement('div');
  tools.className = 'table-tools';
  tools.append(button('CSV', 'csv', tid ? `${tid}-csv` : null), button('JSON', 'json', tid ? `${tid}-json` : null));
  return tools;
}

/** Copies text; falls back to a selected text field and execCommand where the Clipboard API is
 *  missing or refused (http pages other than localhost, older browsers). Resolves true/false. */
export async function copyText(text) {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* fall back below */ }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.setAttribute('aria-hidden', 'true');
  field.className = 'offscreen';
  document.body.append(field);
  field.select();
  let ok = false;
  try { ok = document.execCommand('copy'); } catch { ok = false; }
  field.remove();
  return ok;
}
