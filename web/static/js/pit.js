// The pit: what an administrator does from the floor — credit a wallet,
// open a table, change a table's options between rounds, start a new shoe,
// void the round in play — and the significant-event log of every table.
// Everything goes through the HTTP API (docs/openapi.yaml); the server
// checks each request and answers a refusal with its one-line reason.

import { api, clientID, commandID, loggedIn, session } from './api.js';
import { h, replace, money, parseMoney, plainMoney } from './dom.js';
import { announce, toast } from './ui.js';
import { t, formatDate, has, sentence } from './i18n.js';
import { phaseName } from './status.js';

export function pitPage(main) {
  if (!loggedIn() || !session.user?.admin) {
    replace(main, h('h1', {}, t('pit.title')),
      h('p', { class: 'empty' }, t('pit.adminsOnly'), loggedIn() ? t('pit.logInAsOne') : h('a', { href: '/login?next=/pit' }, t('pit.logIn'))));
    return () => {};
  }
  const tables = h('tbody', {});
  const events = h('tbody', {});
  const filter = h('select', { id: 'events-table', 'aria-label': t('pit.eventsOf') }, h('option', { value: '' }, t('pit.everyTable')));
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
  const amount = h('input', { id: 'credit-amount', name: 'amount', required: true, inputmode: 'decimal', placeholder: plainMoney(10000) });
  const memo = h('input', { id: 'credit-memo', name: 'memo', placeholder: t('pit.optional') });
  const creditForm = h('form', { class: 'pit-form', id: 'credit', 'aria-labelledby': 'credit-h' },
    h('h2', { id: 'credit-h' }, t('pit.credit')),
    field(t('pit.player'), who), field(t('pit.amount'), amount), field(t('pit.memo'), memo),
    h('button', { type: 'submit', class: 'button' }, t('pit.creditButton')));
  creditForm.addEventListener('submit', async ev => {
    ev.preventDefault();
    const minor = parseMoney(amount.value);
    if (!(minor > 0)) {
      toast(t('pit.amountInvalid', { example: plainMoney(10000) }));
      return;
    }
    try {
      await api('/api/admin/credit', { method: 'POST', body: { command_id: commandID(), user: who.value.trim(), amount: minor, memo: memo.value.trim() || undefined } });
      amount.value = memo.value = '';
      done(t('pit.credited', { player: who.value.trim(), amount: money(minor) }));
    } catch (e) {
      toast(e.message);
    }
  });

  // ---- open a table ----
  const tName = h('input', { id: 'open-name', name: 'name', required: true, autocomplete: 'off' });
  const tProfile = h('input', { id: 'open-profile', name: 'profile', required: true, list: 'profiles', placeholder: 'venice' });
  const tOptions = h('input', { id: 'open-options', name: 'options', placeholder: 'min_bet=100 max_bet=50000' });
  const openForm = h('form', { class: 'pit-form', id: 'open', 'aria-labelledby': 'open-h' },
    h('h2', { id: 'open-h' }, t('pit.open')),
    field(t('pit.name'), tName), field(t('pit.profile'), tProfile), field(t('pit.options'), tOptions, t('pit.optionsHint')),
    h('datalist', { id: 'profiles' }, ['argentina', 'spain', 'venice', 'family', 'vegas-s17', 'vegas-h17'].map(p => h('option', { value: p }))),
    h('button', { type: 'submit', class: 'button' }, t('pit.openButton')));
  openForm.addEventListener('submit', async ev => {
    ev.preventDefault();
    const options = parseOptions(tOptions.value);
    if (!options) return;
    try {
      const tb = await api('/api/tables', { method: 'POST', body: { name: tName.value.trim(), profile: tProfile.value.trim(), options } });
      tName.value = tOptions.value = '';
      done(t('pit.opened', { id: tb.id, name: tb.name }));
    } catch (e) {
      toast(e.message);
    }
  });

  // ---- the tables ----
  // A table's fields outlive the reloads of the list: what the pit is
  // typing stays.
  const fields = new Map();
  function tableRow(tb) {
    const inPlay = tb.round && tb.round.phase !== 'done';
    if (!fields.has(tb.id)) {
      fields.set(tb.id, {
        opts: h('input', { class: 'pit-options', 'aria-label': t('pit.optionsFor', { name: tb.name }), placeholder: 'max_bet=40000' }),
        reason: h('input', { class: 'pit-reason', 'aria-label': t('pit.reasonFor', { name: tb.name }), placeholder: t('pit.reason') }),
      });
    }
    const { opts, reason } = fields.get(tb.id);
    const configure = h('button', { class: 'button small', dataset: { op: 'configure' } }, t('pit.change'));
    configure.addEventListener('click', async () => {
      const options = parseOptions(opts.value);
      if (!options || !Object.keys(options).length) {
        if (options) toast(t('pit.nameOptions'));
        return;
      }
      try {
        await command(tb.id, 'configure', { options, reason: reason.value.trim() || undefined });
        opts.value = reason.value = '';
        done(`${tb.name}: ${Object.entries(options).map(([k, v]) => `${k}=${v}`).join(', ')}.`);
      } catch (e) {
        toast(e.message);
      }
    });
    const act = (op, label, text) => {
      const b = h('button', { class: 'button small secondary', dataset: { op } }, label);
      b.addEventListener('click', async () => {
        if (op === 'void' && !confirm(t('pit.confirmVoid', { round: tb.round?.no, name: tb.name }))) return;
        try {
          await command(tb.id, op, {});
          done(`${tb.name}: ${text}.`);
        } catch (e) {
          toast(e.message);
        }
      });
      return b;
    };
    const r = tb.rules || {};
    return h('tr', { dataset: { table: tb.id } },
      h('td', {}, h('a', { href: `/tables/${tb.id}` }, tb.name), h('br'), h('small', {}, `${tb.id} · ${tb.profile}`),
        tb.shoe?.physical ? [h('br'), h('a', { href: `/tables/${tb.id}/console`, class: 'console-link' }, t('console.title'))] : null),
      h('td', {}, `${money(r.min_bet)} – ${money(r.max_bet)}`,
        // A live table's cash float (issue 25): set with cash_approval= and float_limit=.
        tb.cash ? [h('br'), h('small', { class: 'pit-cash' }, t('pit.cash', {
          approval: tb.cash.cash_approval ? money(tb.cash.cash_approval) : t('pit.noLimit'),
          limit: tb.cash.float_limit ? money(tb.cash.float_limit) : t('pit.noLimit'),
        }))] : null),
      h('td', {}, tb.closed ? t('pit.closed') : inPlay ? t('pit.inPlay', { round: tb.round.no, phase: phaseName(tb.round.phase).toLowerCase() }) : t('pit.seated', { n: (tb.seats || []).length })),
      h('td', {}, h('div', { class: 'pit-change' }, opts, reason, configure)),
      h('td', {}, h('div', { class: 'pit-actions' }, act('new-shoe', t('pit.newShoe'), t('pit.newShoeDone')), inPlay ? act('void', t('pit.void'), t('pit.voidDone')) : null)));
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
    replace(filter, h('option', { value: '' }, t('pit.everyTable')), known.map(x => h('option', { value: x.id, selected: String(x.id) === chosen }, x.name)));
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
    const name = id => known.find(x => x.id === id)?.name || t('pit.house');
    replace(events, list.length ? list.map(e => h('tr', { dataset: { kind: e.kind } },
      h('td', { class: 'nowrap' }, formatDate(e.at)),
      h('td', {}, name(e.table)),
      h('td', {}, has('kind.' + e.kind) ? t('kind.' + e.kind) : e.kind),
      h('td', {}, sentence('event.', e.words, e.summary)))) : h('tr', {}, h('td', { colspan: 4, class: 'empty' }, t('pit.nothing'))));
  }
  filter.addEventListener('change', loadEvents);

  replace(main,
    h('div', { class: 'lobby-head' }, h('h1', {}, t('pit.title')),
      h('p', {}, t('pit.intro'))),
    status,
    h('div', { class: 'pit-forms' }, creditForm, openForm),
    h('table', { class: 'rounds pit-tables' },
      h('caption', {}, t('pit.tables')),
      h('thead', {}, h('tr', {}, h('th', {}, t('pit.colTable')), h('th', {}, t('pit.colStakes')), h('th', {}, t('pit.colNow')), h('th', {}, t('pit.colChange')), h('th', {}, t('pit.colPit')))),
      tables),
    h('table', { class: 'rounds pit-events' },
      h('caption', {}, t('pit.events'), filter),
      h('thead', {}, h('tr', {}, h('th', {}, t('pit.colWhen')), h('th', {}, t('pit.colTable')), h('th', {}, t('pit.colKind')), h('th', {}, t('pit.colWhat')))),
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
      toast(t('pit.notKeyValue', { kv }));
      return null;
    }
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}
