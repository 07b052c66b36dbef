// Log in, or register and log in.

import { api, login, register, APIError } from './api.js';
import { h, replace, money } from './dom.js';
import { navigate } from './ui.js';
import { t, refusal } from './i18n.js';

// MAX_NAME is the longest name, in characters (the server's MaxName).
export const MAX_NAME = 32;

// nameLength is a name's length as the server counts it: characters after
// Unicode NFKC ("José" typed with a combining accent is 4).
export function nameLength(s) {
  return [...s.normalize('NFKC')].length;
}

export function loginPage(main, next) {
  // No maxlength: a longer name is refused with its length, never cut.
  const name = h('input', { id: 'name', name: 'name', autocomplete: 'username', required: true, 'aria-describedby': 'name-hint' });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true, minlength: 8, 'aria-describedby': 'password-hint' });
  const error = h('p', { class: 'form-error', role: 'alert', id: 'login-error' });
  const welcome = h('p', { class: 'hint', id: 'welcome' }, t('login.playMoney'));
  let mode = 'login';
  const form = h('form', { class: 'login', novalidate: true, 'aria-labelledby': 'login-h' },
    h('h1', { id: 'login-h' }, t('login.heading')),
    h('p', { class: 'field' }, h('label', { for: 'name' }, t('login.name')), name,
      h('span', { class: 'hint', id: 'name-hint' }, t('login.nameHint', { max: MAX_NAME }))),
    h('p', { class: 'field' }, h('label', { for: 'password' }, t('login.password')), password,
      h('span', { class: 'hint', id: 'password-hint' }, t('login.passwordHint', { min: 8 }))),
    error,
    h('p', { class: 'buttons' },
      h('button', { type: 'submit', class: 'button', id: 'login', onclick: () => { mode = 'login'; } }, t('page.login')),
      h('button', { type: 'submit', class: 'button secondary', id: 'register', onclick: () => { mode = 'register'; } }, t('login.register'))),
    welcome);
  // What a new wallet gets is the server's to say (--welcome-credit).
  api('/api/site').then(site => {
    welcome.textContent = site.welcome_credit > 0
      ? t('login.welcome', { amount: money(site.welcome_credit) })
      : t('login.empty');
  }).catch(() => {});
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    error.textContent = '';
    if (!name.value || !password.value) {
      error.textContent = t('login.both');
      return;
    }
    const n = nameLength(name.value);
    if (n > MAX_NAME) {
      error.textContent = t('login.tooLong', { max: MAX_NAME, n });
      name.focus();
      return;
    }
    const buttons = form.querySelectorAll('button');
    buttons.forEach(b => { b.disabled = true; });
    try {
      if (mode === 'register') await register(name.value, password.value);
      else await login(name.value, password.value);
      navigate(next.startsWith('/') && !next.startsWith('//') ? next : '/', true);
    } catch (e) {
      error.textContent = e instanceof APIError ? refusal(e) : String(e);
      buttons.forEach(b => { b.disabled = false; });
      password.focus();
    }
  });
  replace(main, form);
  name.focus();
  return null;
}
