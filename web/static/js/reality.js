// The reality check on the table (docs/players.md): the session's time in
// the table's heading, and every N minutes of the session (the player's
// choice, /account) a dialog with the time played and the session's net,
// to go on or to leave the table. ?reality=SECONDS sets another interval
// for this tab (tests, demonstrations).

import { api } from './api.js';
import { h, replace, signed } from './dom.js';
import { t } from './i18n.js';

const KEY = 'sabot.realitySeconds';

// clock shows a duration in ms as h:mm:ss or m:ss.
export function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

// nextCheck is when the check after now comes: the first multiple of the
// interval after the session's start that is later than the last shown.
export function nextCheck(started, every, shown) {
  if (!every) return Infinity;
  const k = Math.floor((Math.max(shown, started) - started) / every) + 1;
  return started + k * every;
}

export class RealityCheck {
  // onLeave leaves the table.
  constructor(onLeave) {
    this.onLeave = onLeave;
    this.started = 0;
    this.every = 0;
    this.shown = 0;
    this.el = h('span', { class: 'session-time', hidden: true });
    this.dialog = null;
    const q = new URLSearchParams(location.search).get('reality');
    if (q !== null) sessionStorage.setItem(KEY, q);
    this.load();
  }

  async load() {
    try {
      const v = await api('/api/me/care');
      this.started = Date.parse(v.session_started) || Date.now();
      const test = Number(sessionStorage.getItem(KEY) || 0);
      this.every = (test > 0 ? test : v.reality_minutes * 60) * 1000;
      this.shown = Date.now();
      this.el.hidden = false;
      this.tick();
    } catch { /* an operator's wallet: no reality check of ours */ }
  }

  tick() {
    if (!this.started) return;
    const now = Date.now();
    this.el.textContent = t('reality.session', { time: clock(now - this.started) });
    if (!this.dialog && now >= nextCheck(this.started, this.every, this.shown)) this.show(now);
  }

  async show(now) {
    this.shown = now;
    let net = 0;
    try { net = (await api('/api/me/care')).session_net; } catch { /* shown without */ }
    const go = h('button', { class: 'button', type: 'button', onclick: () => this.close() }, t('reality.continue'));
    this.dialog = h('div', { class: 'reality', role: 'alertdialog', 'aria-modal': 'true', 'aria-labelledby': 'reality-h', 'aria-describedby': 'reality-text' },
      h('h2', { id: 'reality-h' }, t('reality.heading')),
      h('p', { id: 'reality-text' }, t('reality.text', { minutes: Math.floor((now - this.started) / 60000), net: signed(net) })),
      h('p', { class: 'buttons' }, go, ' ', h('button', { class: 'button secondary', type: 'button', onclick: () => { this.close(); this.onLeave(); } }, t('reality.leave'))));
    document.body.append(this.dialog);
    go.focus();
  }

  close() {
    this.dialog?.remove();
    this.dialog = null;
    this.shown = Date.now();
  }

  stop() {
    this.started = 0;
    this.close();
  }
}
