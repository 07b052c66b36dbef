// The pit: what an administrator does from the floor — credit a wallet,
// open a table, change a table's options between rounds, start a new shoe,
// void the round in play — and the significant-event log of every table.
// Everything goes through the HTTP API (docs/openapi.yaml); the server
// checks each request and answers a refusal with its one-line reason.

import { api, clientID, commandID, loggedIn, session } from './api.js';
import { h, replace, money, parseMoney } from './dom.js';
import { announce, toast } from './ui.js';

export function pitPage(main) {
  if (!loggedIn() || !session.user?.admin) {
    replace(main, h('h1', {}, 'The pit'),
      h('p', { class: 'empty' }, 'The pit is for administrators. ', loggedIn() ? 'Log in as one to use it.' : h('a', { href: '/login?next=/pit' }, 'Log in.')));
    return () => {};
  }
  const tables = h('tbody', {});
  const events = h('tbody', {});
  const filter = h('select', { id: 'events-table', 'aria-label': 'Events of' }, h('option', { value: '' }, 'every table'));
  const status = h('p', { class: 'pit-status', role: 'status' });
  let known = [];

  // done reports an action that went through, and reloads what it changed.
  function done(text) {
    replace(status, text);
    announce(text);
    loadTables();
    loadEvents();
  }

  async function command(id, op, body) {
    return api(`/api/tables/${id}/${op}`, { method: 'POST', body: { command_id: commandID(), client_id: clientID, ...body } });
  }

  // ---- credit ----
  const who = h('input', { id: 'credit-user', name: 'user', required: true, autocomplete: 'off' });
  const amount = h('input', { id: 'credit-amount', name: 'amount', required: true, inputmode: 'decimal', placeholder: '100.00' });
  const memo = h('input', { id: 'credit-memo', name: 'memo', placeholder: 'optional' });
  const creditForm = h('form', { class: 'pit-form', id: 'credit', 'aria-labelledby': 'credit-h' },
    h('h2', { id: 'credit-h' }, 'Credit a wallet'),
    field('Player', who), field('Amount', amount), field('Memo', memo),
    h('button', { type: 'submit', class: 'button' }, 'Credit'));
  creditForm.addEventListener('submit', async ev => {
    ev.preventDefault();
    const minor = parseMoney(amount.value);
    if (!(minor > 0)) {
      toast('The amount is money above zero, e.g. 100.00.');
      return;
    }
    try {
      await api('/api/admin/credit', { method: 'POST', body: { command_id: commandID(), user: who.value.trim(), amount: minor, memo: memo.value.trim() || undefined } });
      amount.value = memo.value = '';
      done(`${who.value.trim()} credited ${money(minor)}.`);
    } catch (e) {
      toast(e.message);
    }
  });

  // ---- open a table ----
  const tName = h('input', { id: 'open-name', name: 'name', required: true, autocomplete: 'off' });
  const tProfile = h('input', { id: 'open-profile', name: 'profile', required: true, list: 'profiles', placeholder: 'venice' });
  const tOptions = h('input', { id: 'open-options', name: 'options', placeholder: 'min_bet=100 max_bet=50000' });
  const openForm = h('form', { class: 'pit-form', id: 'open', 'aria-labelledby': 'open-h' },
    h('h2', { id: 'open-h' }, 'Open a table'),
    field('Name', tName), field('Profile', tProfile), field('Options', tOptions, 'key=value, separated by spaces; amounts in minor units'),
    h('datalist', { id: 'profiles' }, ['argentina', 'spain', 'venice', 'family', 'vegas-s17', 'vegas-h17'].map(p => h('option', { value: p }))),
    h('button', { type: 'submit', class: 'button' }, 'Open'));
  openForm.addEventListener('submit', async ev => {
    ev.preventDefault();
    const options = parseOptions(tOptions.value);
    if (!options) return;
    try {
      const t = await api('/api/tables', { method: 'POST', body: { name: tName.value.trim(), profile: tProfile.value.trim(), options } });
      tName.value = tOptions.value = '';
      done(`Table ${t.id}, ${t.name}, is open.`);
    } catch (e) {
      toast(e.message);
    }
  });

  // ---- the tables ----
  // A table's fields outlive the reloads of the list: what the pit is
  // typing stays.
  const fields = new Map();
  function tableRow(t) {
    const inPlay = t.round && t.round.phase !== 'done';
    if (!fields.has(t.id)) {
      fields.set(t.id, {
        opts: h('input', { class: 'pit-options', 'aria-label': `Options for ${t.name}`, placeholder: 'max_bet=40000' }),
        reason: h('input', { class: 'pit-reason', 'aria-label': `Reason for ${t.name}`, placeholder: 'reason' }),
      });
    }
    const { opts, reason } = fields.get(t.id);
    const configure = h('button', { class: 'button small', dataset: { op: 'configure' } }, 'Change');
    configure.addEventListener('click', async () => {
      const options = parseOptions(opts.value);
      if (!options || !Object.keys(options).length) {
        if (options) toast('Name the options to change: key=value.');
        return;
      }
      try {
        await command(t.id, 'configure', { options, reason: reason.value.trim() || undefined });
        opts.value = reason.value = '';
        done(`${t.name}: ${Object.entries(options).map(([k, v]) => `${k}=${v}`).join(', ')}.`);
      } catch (e) {
        toast(e.message);
      }
    });
    const act = (op, label, text) => {
      const b = h('button', { class: 'button small secondary', dataset: { op } }, label);
      b.addEventListener('click', async () => {
        if (op === 'void' && !confirm(`Void round ${t.round?.no} at ${t.name}? Every stake is returned.`)) return;
        try {
          await command(t.id, op, {});
          done(`${t.name}: ${text}.`);
        } catch (e) {
          toast(e.message);
        }
      });
      return b;
    };
    const r = t.rules || {};
    return h('tr', { dataset: { table: t.id } },
      h('td', {}, h('a', { href: `/tables/${t.id}` }, t.name), h('br'), h('small', {}, `${t.id} · ${t.profile}`)),
      h('td', {}, `${money(r.min_bet)} – ${money(r.max_bet)}`),
      h('td', {}, t.closed ? 'out of service' : inPlay ? `round ${t.round.no}: ${t.round.phase}` : `${(t.seats || []).length} seated`),
      h('td', {}, h('div', { class: 'pit-change' }, opts, reason, configure)),
      h('td', {}, h('div', { class: 'pit-actions' }, act('new-shoe', 'New shoe', 'a new shoe (AR-24)'), inPlay ? act('void', 'Void round', 'the round is void, every stake returned') : null)));
  }

  async function loadTables() {
    try {
      known = await api('/api/tables');
    } catch (e) {
      toast(e.message);
      return;
    }
    replace(tables, known.map(tableRow));
    const chosen = filter.value;
    replace(filter, h('option', { value: '' }, 'every table'), known.map(t => h('option', { value: t.id, selected: String(t.id) === chosen }, t.name)));
  }

  // ---- the significant events ----
  async function loadEvents() {
    const q = filter.value ? `&table=${filter.value}` : '';
    let list;
    try {
      list = await api(`/api/admin/events?limit=100${q}`);
    } catch (e) {
      toast(e.message);
      return;
    }
    // Credits, tables opened and administrators are in the log of no game table.
    const name = id => known.find(t => t.id === id)?.name || 'the house';
    replace(events, list.length ? list.map(e => h('tr', { dataset: { kind: e.kind } },
      h('td', { class: 'nowrap' }, new Date(e.at).toLocaleString()),
      h('td', {}, name(e.table)),
      h('td', {}, e.kind),
      h('td', {}, e.summary))) : h('tr', {}, h('td', { colspan: 4, class: 'empty' }, 'Nothing yet.')));
  }
  filter.addEventListener('change', loadEvents);

  replace(main,
    h('div', { class: 'lobby-head' }, h('h1', {}, 'The pit'),
      h('p', {}, 'Wallets, tables and their options, and every table\'s significant events. Changes to a table apply between rounds.')),
    status,
    h('div', { class: 'pit-forms' }, creditForm, openForm),
    h('table', { class: 'rounds pit-tables' },
      h('caption', {}, 'Tables'),
      h('thead', {}, h('tr', {}, h('th', {}, 'Table'), h('th', {}, 'Stakes'), h('th', {}, 'Now'), h('th', {}, 'Change options'), h('th', {}, 'Pit'))),
      tables),
    h('table', { class: 'rounds pit-events' },
      h('caption', {}, 'Significant events, newest first ', filter),
      h('thead', {}, h('tr', {}, h('th', {}, 'When'), h('th', {}, 'Table'), h('th', {}, 'Kind'), h('th', {}, 'What'))),
      events));

  loadTables().then(loadEvents);
  const timer = setInterval(() => { loadTables(); loadEvents(); }, 10000);
  return () => clearInterval(timer);
}

function field(label, input, hint) {
  const id = input.id || input.getAttribute('aria-label');
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('span', { class: 'hint' }, hint) : null);
}

// parseOptions reads "min_bet=100 max_bet=50000" (spaces or commas between
// them) as an object of strings; null, after saying why, if it cannot.
function parseOptions(s) {
  const out = {};
  for (const kv of String(s).split(/[\s,]+/).filter(Boolean)) {
    const i = kv.indexOf('=');
    if (i <= 0) {
      toast(`"${kv}" is not key=value.`);
      return null;
    }
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}
