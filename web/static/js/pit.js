// The pit: what an administrator does from the floor — credit a wallet,
// open a table, change a table's options between rounds, start a new shoe,
// void the round in play — and the significant-event log of every table.
// Everything goes through the HTTP API (docs/openapi.yaml); the server
// checks each request and answers a refusal with its one-line reason.

import { api, clientID, commandID, loggedIn, session } from './api.js';
import { h, replace, money, parseMoney, plainMoney, optionAmounts, optionText } from './dom.js';
import { announce, toast } from './ui.js';
import { t, formatDate, has, sentence } from './i18n.js';
import { phaseName } from './status.js';
import { playersPanel } from './pitplayers.js';
import { floorPanel } from './floor.js';

export function pitPage(main) {
  if (!loggedIn() || !session.user?.admin) {
    replace(main, h('h1', {}, t('pit.title')),
      h('p', { class: 'empty' }, t('pit.adminsOnly'), loggedIn() ? t('pit.logInAsOne') : h('a', { href: '/login?next=/pit' }, t('pit.logIn'))));
    return () => {};
  }
  const tables = h('tbody', {});
  const events = h('tbody', {});
  const filter = h('select', { id: 'events-table', 'aria-label': t('pit.eventsOf') }, h('option', { value: '' }, t('pit.everyTable')));
  // The log's classes (recall.EventClasses): a filter beside the table's.
  const classes = ['money', 'staff', 'exclusions', 'advantage', 'table', 'system'];
  const classFilter = h('select', { id: 'events-class', 'aria-label': t('pit.eventsClass') },
    h('option', { value: '' }, t('pit.everyClass')), classes.map(c => h('option', { value: c }, t('eventClass.' + c))));
  const status = h('p', { class: 'pit-status', role: 'status' });
  let known = [];

  // done reports an action that went through, and reloads what it changed.
  function done(text) {
    replace(status, text);
    announce(text);
    loadTables();
    loadEvents();
    floor.load();
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
  const tOptions = h('input', { id: 'open-options', name: 'options', placeholder: 'decks=6' });
  // The table's limits, required (a table opened without them
  // took the profile's placeholder, 0.01 to 1,000,000.00).
  const tMin = h('input', { id: 'open-min', name: 'min', required: true, inputmode: 'decimal', autocomplete: 'off', placeholder: plainMoney(500) });
  const tMax = h('input', { id: 'open-max', name: 'max', required: true, inputmode: 'decimal', autocomplete: 'off', placeholder: plainMoney(50000) });
  const openForm = h('form', { class: 'pit-form', id: 'open', 'aria-labelledby': 'open-h' },
    h('h2', { id: 'open-h' }, t('pit.open')),
    field(t('pit.name'), tName), field(t('pit.profile'), tProfile),
    h('div', { class: 'pit-limits' }, field(t('pit.minBet'), tMin), field(t('pit.maxBet'), tMax)),
    field(t('pit.options'), tOptions, t('pit.optionsHint')),
    h('datalist', { id: 'profiles' }, ['argentina', 'spain', 'venice', 'family', 'vegas-s17', 'vegas-h17'].map(p => h('option', { value: p }))),
    h('button', { type: 'submit', class: 'button' }, t('pit.openButton')));
  openForm.addEventListener('submit', async ev => {
    ev.preventDefault();
    const typed = parseOptions(tOptions.value);
    if (!typed) return;
    const options = optionAmounts(typed);
    const min = parseMoney(tMin.value);
    const max = parseMoney(tMax.value);
    if (!(min > 0) || !(max >= min)) {
      toast(t('pit.limitsInvalid', { example: `${plainMoney(500)} – ${plainMoney(50000)}` }));
      return;
    }
    if (max > CONFIRM_MAX && !confirm(t('pit.confirmLimits', { name: tName.value.trim(), min: money(min), max: money(max) }))) return;
    options.min_bet = String(min);
    options.max_bet = String(max);
    try {
      const tb = await api('/api/tables', { method: 'POST', body: { name: tName.value.trim(), profile: tProfile.value.trim(), options } });
      tName.value = tOptions.value = tMin.value = tMax.value = '';
      done(t('pit.opened', { id: tb.id, name: tb.name }));
    } catch (e) {
      toast(e.message);
    }
  });

  // ---- the staff and the card readers (no more curl) ----
  const sName = h('input', { id: 'staff-name', name: 'name', required: true, autocomplete: 'off' });
  const sPassword = h('input', { id: 'staff-password', name: 'password', type: 'password', required: true, autocomplete: 'new-password', minlength: 8 });
  const sRole = h('select', { id: 'staff-role', name: 'role' },
    h('option', { value: 'dealer' }, t('pit.roleDealer')), h('option', { value: 'inspector' }, t('pit.roleInspector')));
  const staffForm = h('form', { class: 'pit-form', id: 'staff', 'aria-labelledby': 'staff-h' },
    h('h2', { id: 'staff-h' }, t('pit.staff')),
    field(t('pit.name'), sName), field(t('pit.password'), sPassword), field(t('pit.role'), sRole),
    h('button', { type: 'submit', class: 'button' }, t('pit.staffButton')));
  staffForm.addEventListener('submit', async ev => {
    ev.preventDefault();
    try {
      const m = await api('/api/admin/staff', { method: 'POST', body: { name: sName.value.trim(), password: sPassword.value, role: sRole.value } });
      sName.value = sPassword.value = '';
      done(t(m.role === 'inspector' ? 'pit.staffInspectorMade' : 'pit.staffDealerMade', { name: m.name }));
    } catch (e) {
      toast(e.message);
    }
  });

  const dTable = h('select', { id: 'device-table', name: 'table', 'aria-label': t('pit.deviceTable') });
  const dName = h('input', { id: 'device-name', name: 'name', required: true, autocomplete: 'off', maxlength: 64, placeholder: t('pit.deviceNameHint') });
  const dToken = h('p', { class: 'pit-token', id: 'device-token', hidden: true });
  const dList = h('ul', { class: 'pit-devices', id: 'device-list' });
  const deviceForm = h('form', { class: 'pit-form', id: 'devices', 'aria-labelledby': 'devices-h' },
    h('h2', { id: 'devices-h' }, t('pit.devices')),
    field(t('pit.deviceTable'), dTable), field(t('pit.name'), dName),
    h('button', { type: 'submit', class: 'button' }, t('pit.deviceButton')), dToken, dList);
  async function loadDevices() {
    if (!dTable.value) {
      replace(dList, h('li', { class: 'empty' }, t('pit.noLiveTable')));
      return;
    }
    try {
      const list = await api(`/api/admin/devices?table=${dTable.value}`);
      replace(dList, list.length ? list.map(d => h('li', { dataset: { device: d.id } },
        `${d.id} · ${d.name} `,
        d.revoked ? h('small', {}, t('pit.deviceRevokedAt', { at: formatDate(d.revoked) }))
          : h('button', {
            type: 'button', class: 'button small secondary', dataset: { op: 'revoke', device: d.id },
            onclick: async () => {
              if (!confirm(t('pit.confirmRevoke', { name: d.name }))) return;
              try {
                await api(`/api/admin/devices/${d.id}/revoke`, { method: 'POST', body: {} });
                done(t('pit.deviceRevoked', { name: d.name }));
                loadDevices();
              } catch (e) {
                toast(e.message);
              }
            },
          }, t('pit.revoke')))) : h('li', { class: 'empty' }, t('pit.noDevices')));
    } catch (e) {
      toast(e.message);
    }
  }
  dTable.addEventListener('change', () => { dToken.hidden = true; loadDevices(); });
  deviceForm.addEventListener('submit', async ev => {
    ev.preventDefault();
    try {
      const r = await api('/api/admin/devices', { method: 'POST', body: { table: Number(dTable.value), name: dName.value.trim() } });
      dName.value = '';
      // The token is shown this once: the store keeps its SHA-256 only.
      replace(dToken, t('pit.deviceToken', { name: r.device.name }), ' ', h('code', {}, r.token));
      dToken.hidden = false;
      done(t('pit.deviceIssued', { name: r.device.name }));
      loadDevices();
    } catch (e) {
      toast(e.message);
    }
  });

  // ---- the players ----
  const players = playersPanel(done);

  // ---- the floor: what the page opens on ----
  const floor = floorPanel(done);

  // ---- the tables ----
  // A table's fields outlive the reloads of the list: what the pit is
  // typing stays.
  const fields = new Map();
  function tableRow(tb) {
    const inPlay = tb.round && tb.round.phase !== 'done';
    if (!fields.has(tb.id)) {
      fields.set(tb.id, {
        opts: h('input', { class: 'pit-options', 'aria-label': t('pit.optionsFor', { name: tb.name }), placeholder: `max_bet=${plainMoney(40000)}` }),
        reason: h('input', { class: 'pit-reason', 'aria-label': t('pit.reasonFor', { name: tb.name }), placeholder: t('pit.reason') }),
      });
    }
    const { opts, reason } = fields.get(tb.id);
    const configure = h('button', { class: 'button small', dataset: { op: 'configure' } }, t('pit.change'));
    configure.addEventListener('click', async () => {
      const typed = parseOptions(opts.value);
      const options = typed && optionAmounts(typed);
      if (!options || !Object.keys(options).length) {
        if (options) toast(t('pit.nameOptions'));
        return;
      }
      try {
        await command(tb.id, 'configure', { options, reason: reason.value.trim() || undefined });
        opts.value = reason.value = '';
        done(`${tb.name}: ${Object.entries(options).map(([k, v]) => optionText(k, v)).join(', ')}.`);
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
    // 003 §11: the table closed between rounds, its players invited to
    // another (its ID asked; none: no table named).
    const closeButton = h('button', { class: 'button small secondary', dataset: { op: 'close-table' } }, t('pit.close'));
    closeButton.addEventListener('click', async () => {
      const answer = prompt(t('pit.closeTo', { name: tb.name }), '');
      if (answer === null) return;
      const to = Number(answer.trim() || 0);
      if (!Number.isInteger(to) || to < 0) {
        toast(t('pit.closeToInvalid'));
        return;
      }
      try {
        await command(tb.id, 'close-table', to ? { to } : {});
        done(`${tb.name}: ${t(to ? 'pit.closeDoneTo' : 'pit.closeDone', { table: to })}.`);
      } catch (e) {
        toast(e.message);
      }
    });
    const r = tb.rules || {};
    return h('tr', { dataset: { table: tb.id } },
      h('td', {}, h('a', { href: `/tables/${tb.id}` }, tb.name), h('br'), h('small', {}, `${tb.id} · ${tb.profile}`),
        tb.shoe?.physical ? [h('br'), h('a', { href: `/tables/${tb.id}/console`, class: 'console-link' }, t('console.title'))] : null),
      h('td', {}, `${money(r.min_bet)} – ${money(r.max_bet)}`,
        // A live table's cash float: set with cash_approval= and float_limit=.
        tb.cash ? [h('br'), h('small', { class: 'pit-cash' }, t('pit.cash', {
          approval: tb.cash.cash_approval ? money(tb.cash.cash_approval) : t('pit.noLimit'),
          limit: tb.cash.float_limit ? money(tb.cash.float_limit) : t('pit.noLimit'),
        }))] : null),
      h('td', {}, tb.closed ? t(tb.pit_closed ? 'pit.pitClosed' : 'pit.closed') : inPlay ? t('pit.inPlay', { round: tb.round.no, phase: phaseName(tb.round.phase).toLowerCase() }) : t('pit.seated', { n: (tb.seats || []).length })),
      h('td', {}, h('div', { class: 'pit-change' }, opts, reason, configure)),
      h('td', {}, h('div', { class: 'pit-actions' }, tb.pit_closed ? act('reopen-table', t('pit.reopen'), t('pit.reopenDone')) : [act('new-shoe', t('pit.newShoe'), t('pit.newShoeDone')), inPlay ? act('void', t('pit.void'), t('pit.voidDone')) : tb.closed ? null : closeButton])));
  }

  async function loadTables() {
    try {
      known = await api('/api/tables');
    } catch (e) {
      toast(e.message);
      return;
    }
    replace(tables, known.map(tableRow));
    // The card readers serve the tables dealt from a physical shoe.
    const live = known.filter(x => x.shoe?.physical && !x.closed);
    const was = dTable.value;
    replace(dTable, live.map(x => h('option', { value: x.id, selected: String(x.id) === was }, `${x.id} · ${x.name}`)));
    if (dTable.value !== was) loadDevices();
    const chosen = filter.value;
    replace(filter, h('option', { value: '' }, t('pit.everyTable')), known.map(x => h('option', { value: x.id, selected: String(x.id) === chosen }, x.name)));
  }

  // ---- the significant events ----
  async function loadEvents() {
    const q = (filter.value ? `&table=${filter.value}` : '') + (classFilter.value ? `&class=${classFilter.value}` : '');
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
      h('td', {}, kindText(e)),
      h('td', {}, sentence('event.', e.words, e.summary)))) : h('tr', {}, h('td', { colspan: 4, class: 'empty' }, t('pit.nothing'))));
  }
  filter.addEventListener('change', loadEvents);
  classFilter.addEventListener('change', loadEvents);

  // The page opens on the floor; the forms, the tables' changes and the
  // events are below it, each a jump away.
  const jump = (id, key) => h('a', { href: '#' + id }, t(key));
  replace(main,
    h('div', { class: 'lobby-head' }, h('h1', {}, t('pit.title')),
      h('p', {}, t('pit.intro'))),
    h('nav', { class: 'pit-jump', 'aria-label': t('floor.jump') },
      jump('floor', 'floor.title'), jump('pit-forms', 'floor.forms'), jump('pit-tables', 'floor.changes'), jump('pit-events', 'floor.events'),
      h('a', { href: '/pit/reports' }, t('page.reports'))),
    status,
    floor.el,
    h('section', { class: 'pit-behind', id: 'pit-forms', 'aria-labelledby': 'pit-forms-h' },
      h('h2', { id: 'pit-forms-h' }, t('floor.forms')),
      h('div', { class: 'pit-forms' }, creditForm, openForm),
      h('div', { class: 'pit-forms' }, staffForm, deviceForm),
      players.form, players.table),
    h('table', { class: 'rounds pit-tables', id: 'pit-tables' },
      h('caption', {}, t('pit.tables')),
      h('thead', {}, h('tr', {}, h('th', {}, t('pit.colTable')), h('th', {}, t('pit.colStakes')), h('th', {}, t('pit.colNow')), h('th', {}, t('pit.colChange')), h('th', {}, t('pit.colPit')))),
      tables),
    h('table', { class: 'rounds pit-events', id: 'pit-events' },
      h('caption', {}, t('pit.events'), filter, classFilter),
      h('thead', {}, h('tr', {}, h('th', {}, t('pit.colWhen')), h('th', {}, t('pit.colTable')), h('th', {}, t('pit.colKind')), h('th', {}, t('pit.colWhat')))),
      events));

  floor.load().then(loadTables).then(loadEvents);
  const timer = setInterval(() => { floor.load(); loadTables(); loadEvents(); }, 10000);
  return () => clearInterval(timer);
}

// CONFIRM_MAX is the table maximum above which the pit confirms a table's
// limits before it opens (10,000.00).
const CONFIRM_MAX = 1000000;

// kindText names an event's kind: the pit's own events by what they are (a
// credit, a card reader, an exclusion…), not all "pit".
function kindText(e) {
  const ev = String(e.payload?.event || '');
  const k = ev.startsWith('wallet-') ? 'wallet' : ev.startsWith('node-') ? 'node' : ev;
  if (e.kind === 'admin' && k && has('kind.' + k)) return t('kind.' + k);
  return has('kind.' + e.kind) ? t('kind.' + e.kind) : e.kind;
}

function field(label, input, hint) {
  const id = input.id || input.getAttribute('aria-label');
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('span', { class: 'hint' }, hint) : null);
}

// parseOptions reads "min_bet=100 max_bet=50000" (spaces or commas between
// them) as an object of strings; null, after saying why, if it cannot.
function parseOptions(s) {
  const out = {};
  // Options part at spaces, or at a comma before the next key (an amount
  // has its own comma in Spanish and Italian: max_bet=400,00).
  for (const kv of String(s).split(/\s+|,(?=\s*[a-z_]+=)/).filter(Boolean)) {
    const i = kv.indexOf('=');
    if (i <= 0) {
      toast(t('pit.notKeyValue', { kv }));
      return null;
    }
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}
