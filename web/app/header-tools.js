// The header's tools beside the catalog line: the prices' age, the region picker and "Copy link"
// (fetched after the first answer: the first screen does not wait for them). The page's own helpers are
// passed in, so that this module adds no chunk of its own to the first download.
let h;
let copyText;

/** `helpers.writeLink` brings the page's link up to date with its inputs (page.js writes it when
 *  they rest). */
export function addHeaderTools(store, appAlert, helpers) {
  ({ h, copyText } = helpers);
  addRegionPicker(store, appAlert);
  addCopyLink(helpers.writeLink);
}

/** Region: each provider's usual one, one region (its provider's; the others keep theirs), or the
 *  cheapest of all. A region's prices are fetched when first chosen. */
function addRegionPicker(store, appAlert) {
  const select = h('select', { id: 'region', testid: 'region' },
    h('option', { value: '' }, 'Usual regions'),
    h('option', { value: 'all' }, 'Cheapest of all regions'),
    Object.entries(store.priceIndex.providers ?? {}).map(([provider, p]) => h('optgroup', { label: store.state?.data?.provider_names?.[provider] ?? provider.toUpperCase() },
      Object.keys(p.regions ?? {}).map((r) => h('option', { value: r }, r)))));
  select.value = store.region;
  select.addEventListener('change', async () => {
    select.disabled = true;
    const state = await store.setRegion(select.value);
    select.disabled = false;
    if (state && state.ok === false) appAlert.show(state.errors, 'These prices could not load');
  });
  document.getElementById('page-tools').prepend(h('label', { for: 'region', class: 'region-label' }, 'Region '), select);
}

/** "Copy link": the page's URL holds the whole state. */
function addCopyLink(writeLink) {
  const status = h('span', { class: 'copy-status', role: 'status', testid: 'copy-status' });
  const button = h('button', { type: 'button', class: 'small-button', testid: 'copy-link' }, 'Copy link');
  button.addEventListener('click', async () => {
    writeLink();
    const ok = await copyText(location.href);
    status.textContent = ok ? 'Link copied' : 'Copy the address bar: the link holds every input';
    setTimeout(() => { status.textContent = ''; }, 4000);
  });
  document.getElementById('page-tools').append(button, status);
}

/** How old the prices are: their date and age, flagged when unknown or over 30 days. */
export function pricesAge(asOf) {
  if (!asOf) return h('span', { testid: 'prices-age' }, 'no prices');
  if (asOf === 'unknown') {
    return h('span', { class: 'pill risk-medium', testid: 'prices-age', title: 'The public price lists these prices were taken from carry no date, so how old the prices are is not known: check current prices before acting.' }, 'prices: date unknown');
  }
  const days = Math.floor((Date.now() - Date.parse(`${asOf}T00:00:00Z`)) / 86400000);
  const text = `prices as of ${asOf} (${days} day${days === 1 ? '' : 's'} ago)`;
  return h('span', { class: days > 30 ? 'pill risk-medium' : '', testid: 'prices-age', title: days > 30 ? 'Older than 30 days: check current prices before acting.' : '' }, text);
}
