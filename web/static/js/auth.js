// Log in, or register and log in.

import { login, register, APIError } from './api.js';
import { h, replace } from './dom.js';
import { navigate } from './ui.js';

export function loginPage(main, next) {
  const name = h('input', { id: 'name', name: 'name', autocomplete: 'username', required: true, pattern: '[A-Za-z0-9_.\\-]{1,32}', maxlength: 32, 'aria-describedby': 'name-hint' });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true, minlength: 8, 'aria-describedby': 'password-hint' });
  const error = h('p', { class: 'form-error', role: 'alert', id: 'login-error' });
  let mode = 'login';
  const form = h('form', { class: 'login', novalidate: true, 'aria-labelledby': 'login-h' },
    h('h1', { id: 'login-h' }, 'Log in or register'),
    h('p', { class: 'field' }, h('label', { for: 'name' }, 'Name'), name,
      h('span', { class: 'hint', id: 'name-hint' }, 'Letters, digits, ".", "_" or "-"; up to 32.')),
    h('p', { class: 'field' }, h('label', { for: 'password' }, 'Password'), password,
      h('span', { class: 'hint', id: 'password-hint' }, 'At least 8 characters.')),
    error,
    h('p', { class: 'buttons' },
      h('button', { type: 'submit', class: 'button', id: 'login', onclick: () => { mode = 'login'; } }, 'Log in'),
      h('button', { type: 'submit', class: 'button secondary', id: 'register', onclick: () => { mode = 'register'; } }, 'Register')),
    h('p', { class: 'hint' }, 'Play money only: a new wallet is empty until the pit credits it.'));
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    error.textContent = '';
    if (!name.value || !password.value) {
      error.textContent = 'Give a name and a password.';
      return;
    }
    const buttons = form.querySelectorAll('button');
    buttons.forEach(b => { b.disabled = true; });
    try {
      if (mode === 'register') await register(name.value, password.value);
      else await login(name.value, password.value);
      navigate(next.startsWith('/') && !next.startsWith('//') ? next : '/', true);
    } catch (e) {
      error.textContent = e instanceof APIError ? e.message : String(e);
      buttons.forEach(b => { b.disabled = false; });
      password.focus();
    }
  });
  replace(main, form);
  name.focus();
  return null;
}
