// The application: the routes of the single page, the account and the
// language switch in the header.

import { session, bus, refreshMe, logout, loggedIn, api, setSession } from './api.js';
import { h, replace, money } from './dom.js';
import { lobbyPage } from './lobby.js';
import { loginPage } from './auth.js';
import { tablePage } from './table.js';
import { recallListPage, replayPage } from './recall.js';
import { pitPage } from './pit.js';
import { reportsPage } from './reports.js';
import { consolePage } from './console.js';
import { accountPage } from './account.js';
import { applyMotion } from './fx.js';
import { navigate, setRouter } from './ui.js';
import { t, getLang, setLang, langBus, LANGUAGES, setCurrency } from './i18n.js';

// A player launched from the operator's site (GET /launch, docs/wallet.md)
// arrives with his session in the URL's fragment: keep it, and take it out
// of the address bar and the history.
{
  const launched = new URLSearchParams(location.hash.slice(1)).get('session');
  if (launched) {
    setSession(launched, null);
    history.replaceState(null, '', location.pathname + location.search);
  }
}

const main = document.getElementById('main');
const account = document.getElementById('account');

// The pit's link shows to administrators only.
const nav = document.querySelector('.nav');
const pitLink = h('a', { href: '/pit' }, t('page.pit'));
const reportsLink = h('a', { href: '/pit/reports' }, t('page.reports'));

// The page's own words (index.html) in the language in use: an element's
// data-i18n key is its text, data-i18n-label its aria-label.
function drawStatic() {
  document.documentElement.lang = getLang();
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  pitLink.textContent = t('page.pit');
  reportsLink.textContent = t('page.reports');
}

// The language switch: remembered in this browser; the page is drawn again
// in the new language at once.
const langSelect = document.getElementById('lang');
for (const l of LANGUAGES) langSelect.append(h('option', { value: l.code, lang: l.code }, l.name));
langSelect.value = getLang();
langSelect.addEventListener('change', () => setLang(langSelect.value));
langBus.addEventListener('lang', () => {
  langSelect.value = getLang();
  drawStatic();
  drawAccount();
  route();
  // The focus leaves the switch for the page drawn again, as after a link:
  // the table's one-letter shortcuts (E, I…) would otherwise pick another
  // language in the focused list.
  main.focus({ preventScroll: true });
});

function drawAccount() {
  if (session.user?.admin) nav.append(pitLink, reportsLink);
  else {
    pitLink.remove();
    reportsLink.remove();
  }
  if (!loggedIn()) {
    const recall = nav.querySelector('a[href="/recall"]');
    if (recall) recall.hidden = false;
    replace(account, h('a', { class: 'button small', href: '/login' }, t('page.login')));
    return;
  }
  const u = session.user || {};
  // The staff do not play: no balance, no rounds of their own.
  const staff = !!(u.admin || u.role === 'dealer' || u.role === 'inspector');
  const recall = nav.querySelector('a[href="/recall"]');
  if (recall) recall.hidden = staff;
  replace(account,
    h('span', { class: 'who' }, u.name),
    h('a', { href: '/account', class: 'account-link' }, t('page.account')),
    staff ? null : h('span', { class: 'wallet' }, h('span', { class: 'wallet-label' }, t('page.balance')), h('strong', { id: 'balance' }, money(u.wallet || 0))),
    h('button', { class: 'link', onclick: async () => { await logout(); navigate('/'); } }, t('page.logout')));
}
// A different user (a login, a logout, a session that ran out) sees the
// page again as himself.
let shownAs = session.user?.name || '';
bus.addEventListener('session', () => {
  drawAccount();
  const now = session.user?.name || '';
  if (now !== shownAs) {
    shownAs = now;
    route();
  }
});
bus.addEventListener('wallet', drawAccount);

// On a phone the header is one row: the brand and a menu button that opens
// the links, the account and the language; it closes on a route.
const menuToggle = document.getElementById('menu-toggle');
const menu = document.getElementById('menu');
function setMenu(open) {
  menuToggle.setAttribute('aria-expanded', String(open));
  menu.classList.toggle('open', open);
}
menuToggle.addEventListener('click', () => setMenu(menuToggle.getAttribute('aria-expanded') !== 'true'));

// ---- routes ----

let cleanup = null;

function route() {
  if (cleanup) {
    cleanup();
    cleanup = null;
  }
  const path = location.pathname;
  let m;
  setMenu(false);
  refreshMe();
  main.replaceChildren();
  window.scrollTo(0, 0);
  if (path === '/' || path === '') {
    document.title = t('title.lobby');
    cleanup = lobbyPage(main);
  } else if (path === '/login') {
    document.title = t('title.login');
    cleanup = loginPage(main, new URLSearchParams(location.search).get('next') || '/');
  } else if ((m = path.match(/^\/tables\/(\d+)\/console$/))) {
    document.title = t('console.title');
    cleanup = consolePage(main, Number(m[1]));
  } else if ((m = path.match(/^\/tables\/(\d+)$/))) {
    document.title = t('title.table');
    cleanup = tablePage(main, Number(m[1]));
  } else if (path === '/account') {
    document.title = t('title.account');
    cleanup = accountPage(main);
  } else if (path === '/pit') {
    document.title = t('title.pit');
    cleanup = pitPage(main);
  } else if (path === '/pit/reports') {
    document.title = t('title.reports');
    cleanup = reportsPage(main);
  } else if (path === '/recall') {
    document.title = t('title.recall');
    cleanup = recallListPage(main);
  } else if ((m = path.match(/^\/rounds\/(\d+-\d+)$/))) {
    document.title = t('title.replay', { round: m[1] });
    cleanup = replayPage(main, m[1]);
  } else {
    document.title = t('title.notFound');
    replace(main, h('h1', {}, t('page.notFound')), h('p', {}, h('a', { href: '/' }, t('page.backToLobby'))));
  }
  for (const a of document.querySelectorAll('.nav a')) {
    if (a.getAttribute('href') === path) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

// Links inside the page change the route without a reload.
document.addEventListener('click', ev => {
  const a = ev.target.closest('a');
  if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || a.target) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
  if (url.hash && url.pathname === location.pathname) return; // an anchor on the page
  ev.preventDefault();
  navigate(url.pathname + url.search);
  main.focus({ preventScroll: true });
});
window.addEventListener('popstate', route);
setRouter(route);

applyMotion();
drawStatic();
drawAccount();
// Money is shown in the house's currency (--currency), known before the
// first page is drawn; without an answer amounts are plain numbers.
api('/api/site').then(site => setCurrency(site.currency), () => {}).finally(route);
