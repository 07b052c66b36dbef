// The server's HTTP API (docs/openapi.yaml) and the session.

import { randomID } from './dom.js';

const KEY = 'sabot.session';

// bus tells the views that the session or the wallet changed.
export const bus = new EventTarget();

// session is the logged-in user: {token, user: {id, name, admin, wallet}}.
export const session = (() => {
  try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch { return {}; }
})();

// clientID names this browser tab within the user, so that its command IDs
// are its own (docs/protocol.md).
export const clientID = 'web-' + randomID(6);
let commands = 0;

// commandID is a new command ID, unique for this client.
export function commandID() {
  commands++;
  return `c${commands}-${randomID(4)}`;
}

export function loggedIn() {
  return !!session.token;
}

function save() {
  if (session.token) localStorage.setItem(KEY, JSON.stringify({ token: session.token, user: session.user }));
  else localStorage.removeItem(KEY);
  bus.dispatchEvent(new Event('session'));
}

export function setSession(token, user) {
  session.token = token;
  session.user = user;
  save();
}

export function clearSession() {
  delete session.token;
  delete session.user;
  save();
}

// APIError is the server's error: a code and a one-line reason.
export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// api calls the server and returns its JSON answer, or throws an APIError.
export async function api(path, { method = 'GET', body } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (session.token) headers.Authorization = 'Bearer ' + session.token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    const err = new APIError(0, 'network', 'the server cannot be reached');
    err.reason = 'network'; // worded by the page (i18n.js refusal)
    throw err;
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
  if (!res.ok) {
    const err = new APIError(res.status, data?.code || 'internal', data?.error || `${res.status} ${res.statusText}`);
    // Its reason and values, for the page to word it (i18n.js refusal).
    err.reason = data?.reason;
    err.params = data?.params;
    err.error = err.message;
    if (res.status === 401 && session.token && path !== '/api/login') clearSession();
    throw err;
  }
  return data;
}

export async function login(name, password) {
  const r = await api('/api/login', { method: 'POST', body: { name, password } });
  setSession(r.token, r.user);
  return r.user;
}

export async function register(name, password) {
  await api('/api/register', { method: 'POST', body: { name, password } });
  return login(name, password);
}

export async function logout() {
  try { await api('/api/logout', { method: 'POST' }); } catch { /* over anyway */ }
  clearSession();
}

// refreshMe reads the user and the wallet again.
let pending = null;
export function refreshMe() {
  if (!session.token) return Promise.resolve(null);
  if (!pending) {
    pending = api('/api/me').then(u => {
      session.user = u;
      save();
      bus.dispatchEvent(new Event('wallet'));
      return u;
    }).catch(() => null).finally(() => { pending = null; });
  }
  return pending;
}

// The player's recent rounds, kept by this browser: the server has no list
// of a player's rounds (GET /api/me/rounds would be it), so the client notes
// each round it saw the player bet in.
const HISTORY = 'sabot.rounds.';
export function history() {
  if (!session.user) return [];
  try { return JSON.parse(localStorage.getItem(HISTORY + session.user.name)) || []; } catch { return []; }
}

export function noteRound(entry) {
  if (!session.user) return;
  const old = history();
  const seen = old.find(r => r.id === entry.id);
  if (seen) entry.at = seen.at; // when it was first seen settled
  const list = old.filter(r => r.id !== entry.id);
  list.unshift(entry);
  localStorage.setItem(HISTORY + session.user.name, JSON.stringify(list.slice(0, 50)));
}
