// The dealer's console's pure parts (console.js): a card as typed or as a
// reader types it, and whose the next card is, in words.
// Run: node --test web/jstest/

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { readCode, needText } from '../static/js/reader.js';
import { setLang } from '../static/js/i18n.js';

test('readCode: a rank and a suit, as typed or read', () => {
  assert.equal(readCode('AS'), 'AS');
  assert.equal(readCode(' td '), 'TD');
  assert.equal(readCode('10h'), 'TH');
  assert.equal(readCode('Q♦'), 'QD');
  for (const bad of ['', 'A', '1', '11S', 'ZS', 'AX', 'ASD', '10']) assert.equal(readCode(bad), '', bad);
});

test('needText: whose the next card is, in each language', () => {
  setLang('en', false);
  assert.equal(needText({ box: 3, hand: 2 }), 'box 3, hand 2');
  assert.equal(needText({ box: 1, hand: 1, face_down: true }), 'box 1, hand 1, face down');
  assert.equal(needText({ box: 0 }), "the dealer's card");
  assert.equal(needText({ box: 0, face_down: true, replace: true }), "the dealer's hole card, face down (replacing the card burned)");
  assert.equal(needText(null), '');
  setLang('es', false);
  try {
    assert.equal(needText({ box: 2, hand: 1 }), 'casillero 2, mano 1');
    assert.equal(needText({ box: 0, face_down: true }), 'la carta tapada del croupier, boca abajo');
  } finally {
    setLang('en', false);
  }
});
