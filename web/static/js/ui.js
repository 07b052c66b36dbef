// What every view uses of the page around it: the error toast, the live
// regions that read out the dealer, and navigation between routes.

import { h } from './dom.js';

// The live regions: one polite for the dealer's calls, one assertive for
// what concerns this player (the turn, results, the cut card).
const polite = h('div', { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true', id: 'announce' });
const urgent = h('div', { class: 'visually-hidden', 'aria-live': 'assertive', 'aria-atomic': 'true', id: 'announce-urgent' });
document.body.append(polite, urgent);

// announce reads a line out to screen readers.
export function announce(text, assertive = false) {
  const el = assertive ? urgent : polite;
  el.textContent = '';
  // Set again on the next frame, so that the same words are read again.
  requestAnimationFrame(() => { el.textContent = text; });
}

const toastEl = document.getElementById('toast');
let toastTimer = 0;

// toast shows an error or a notice: the server's one-line reason.
export function toast(text) {
  toastEl.textContent = text;
  toastEl.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { toastEl.hidden = true; }, 6000);
}
toastEl.addEventListener('click', () => { toastEl.hidden = true; });

// clearToast takes a refusal away once what it refused is put right (the
// dealer's next good card).
export function clearToast() {
  clearTimeout(toastTimer);
  toastEl.hidden = true;
}

let router = () => {};

export function setRouter(f) {
  router = f;
}

// navigate goes to a route of the page without reloading it.
export function navigate(path, replaceState = false) {
  if (replaceState) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  router();
}
