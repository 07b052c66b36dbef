// The dealer's console's words for cards (console.js): a card as typed or
// as a reader types it, and whose the next card is. No page here: node
// tests it (web/jstest/console.test.mjs).

import { t } from './i18n.js';

export const SUIT_SIGNS = { S: '♠', H: '♥', D: '♦', C: '♣' };

// readCode reads a card as typed: "AS", "as", "10h" (ten), "T♥"; '' if it
// is not one yet.
export function readCode(text) {
  let s = String(text || '').trim().toUpperCase().replace(/^10/, 'T');
  for (const [k, v] of Object.entries(SUIT_SIGNS)) s = s.replace(v, k);
  return /^[A2-9TJQK][SHDC]$/.test(s) ? s : '';
}

// needText says whose the next card is, in words.
export function needText(need) {
  if (!need) return '';
  const where = need.box === 0
    ? t(need.face_down ? 'console.needHole' : 'console.needDealer')
    : t(need.face_down ? 'console.needBoxDown' : 'console.needBox', { box: need.box, hand: need.hand || 1 });
  return need.replace ? `${where} ${t('console.replace')}` : where;
}
