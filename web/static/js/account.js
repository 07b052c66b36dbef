// The account page (/account): the player's responsible-gaming tools on
// the built-in wallets (docs/players.md) — limits on deposits, losses and
// stakes, the reality check, a time-out or a self-exclusion.

import { api, loggedIn, clearSession, session, setSession } from './api.js';
import { h, replace, money, parseMoney } from './dom.js';
import { t, refusal, formatDate } from './i18n.js';
import { navigate } from './ui.js';
import { exclusionChoices, breakText } from './care.js';

const KINDS = ['deposit', 'loss', 'stake'];
const PERIODS = ['day', 'week', 'month'];

// limitText is a limit as the page says it.
export function limitText(l) {
  let s = t('care.limitLine', { kind: t('care.kind.' + l.kind), amount: money(l.amount), period: t('care.period.' + l.period), used: money(l.used) });
  if (l.pending !== undefined && l.pending !== null) s += t('care.pendingRaise', { amount: money(l.pending), when: formatDate(l.pending_from) });
  if (l.removal) s += t('care.pendingRemoval', { when: formatDate(l.pending_from) });
  return s;
}

export function accountPage(main) {
  if (!loggedIn()) {
    replace(main, h('p', {}, h('a', { href: '/login?next=/account' }, t('care.loginFirst'))));
    return null;
  }
  const operatorPage = () => replace(main, h('section', { class: 'care', 'aria-labelledby': 'care-h' },
    h('h1', { id: 'care-h' }, t('care.heading')),
    h('p', { class: 'care-operator' }, t('care.byOperator'))));
  if (session.user?.operator) {
    operatorPage();
    return null;
  }
  const status = h('p', { class: 'care-status', role: 'status' });
  const limits = h('ul', { class: 'care-limits' });
  const kind = h('select', { id: 'care-kind' }, KINDS.map(k => h('option', { value: k }, t('care.kind.' + k))));
  const period = h('select', { id: 'care-period' }, PERIODS.map(p => h('option', { value: p }, t('care.period.' + p))));
  const amount = h('input', { id: 'care-amount', type: 'text', inputmode: 'decimal', autocomplete: 'off' });
  const rule = h('p', { class: 'hint' });
  const reality = h('select', { id: 'care-reality' });
  const breaks = h('div', { class: 'care-breaks' });

  function say(text, bad = false) {
    status.textContent = text;
    status.classList.toggle('bad', bad);
  }

  function draw(v) {
    replace(limits, v.limits.length ? v.limits.map(l => h('li', {}, limitText(l))) : [h('li', { class: 'hint' }, t('care.none'))]);
    rule.textContent = t('care.rule', { hours: v.cooling_hours });
    replace(reality, v.reality_choices.map(m => h('option', { value: m }, m ? t('care.minutes', { n: m }) : t('care.realityNone'))));
    reality.value = String(v.reality_minutes);
    replace(breaks, exclusionChoices(v.exclusions).map(({ kind: k, days: n }) =>
      h('button', { class: 'button small secondary', type: 'button', 'data-exclusion': `${k}-${n}`, onclick: () => confirmBreak(k, n) }, breakText(k, n))));
  }

  async function call(path, body) {
    try {
      const v = await api(path, body === undefined ? {} : { method: 'POST', body });
      if (body !== undefined) say(t('care.saved'));
      draw(v);
    } catch (e) {
      // An operator's player: his operator handles his limits;
      // the page says so instead of tools that would refuse him.
      if (e.reason === 'operator_care') {
        operatorPage();
        return;
      }
      say(refusal(e), true);
    }
  }

  function setLimit(remove) {
    let value = null;
    if (!remove) {
      value = parseMoney(amount.value);
      if (!Number.isFinite(value) || value < 0) {
        say(t('care.badAmount'), true);
        amount.focus();
        return;
      }
    }
    call('/api/me/care/limits', { kind: kind.value, period: period.value, amount: value });
  }

  // A break asks once more, with its end, before it starts.
  function confirmBreak(k, n) {
    const until = new Date(Date.now() + n * 86400000);
    const what = breakText(k, n);
    replace(breaks,
      h('p', { role: 'alert' }, t('care.confirm', { what, until: formatDate(until, { dateStyle: 'long' }) })),
      h('button', { class: 'button', type: 'button', id: 'care-confirm', onclick: () => doBreak(k, n) }, what),
      h('button', { class: 'button secondary', type: 'button', onclick: () => call('/api/me/care') }, t('care.cancel')));
  }

  async function doBreak(k, n) {
    try {
      const pc = await api('/api/me/care/exclusion', { method: 'POST', body: { kind: k, days: n } });
      clearSession();
      navigate('/login?excluded=' + encodeURIComponent(pc.excluded_until), true);
    } catch (e) {
      say(refusal(e), true);
    }
  }

  // The password: every other session ends on every node; this
  // page gets the new one.
  const pwOld = h('input', { id: 'pw-old', type: 'password', autocomplete: 'current-password', required: true });
  const pwNew = h('input', { id: 'pw-new', type: 'password', autocomplete: 'new-password', required: true, minlength: 8 });
  async function changePassword() {
    try {
      const r = await api('/api/me/password', { method: 'POST', body: { password: pwOld.value, new_password: pwNew.value } });
      setSession(r.token, r.user);
      pwOld.value = pwNew.value = '';
      say(t('care.passwordChanged'));
    } catch (e) {
      say(refusal(e), true);
    }
  }

  replace(main, h('section', { class: 'care', 'aria-labelledby': 'care-h' },
    h('h1', { id: 'care-h' }, t('care.heading')),
    h('p', {}, t('care.intro')),
    status,
    h('h2', {}, t('care.limits')),
    limits,
    h('form', { class: 'care-form', onsubmit: ev => { ev.preventDefault(); setLimit(false); } },
      h('label', { for: 'care-kind' }, t('care.kindLabel'), ' '), kind, ' ',
      h('label', { for: 'care-period' }, t('care.periodLabel'), ' '), period, ' ',
      h('label', { for: 'care-amount' }, t('care.amountLabel'), ' '), amount, ' ',
      h('button', { class: 'button small', type: 'submit', id: 'care-set' }, t('care.set')), ' ',
      h('button', { class: 'button small secondary', type: 'button', id: 'care-remove', onclick: () => setLimit(true) }, t('care.remove'))),
    rule,
    h('h2', {}, t('care.reality')),
    h('p', {}, h('label', { for: 'care-reality' }, t('care.realityLabel'), ' '), reality),
    h('h2', {}, t('care.break')),
    h('p', {}, t('care.breakIntro')),
    breaks,
    h('h2', {}, t('care.password')),
    h('form', { class: 'care-form', id: 'password', onsubmit: ev => { ev.preventDefault(); changePassword(); } },
      h('label', { for: 'pw-old' }, t('care.passwordOld'), ' '), pwOld, ' ',
      h('label', { for: 'pw-new' }, t('care.passwordNew'), ' '), pwNew, ' ',
      h('button', { class: 'button small', type: 'submit', id: 'pw-change' }, t('care.passwordChange'))),
    h('p', { class: 'hint' }, t('care.passwordHint'))));
  reality.addEventListener('change', () => call('/api/me/care/reality', { minutes: Number(reality.value) }));
  call('/api/me/care');
  return null;
}
