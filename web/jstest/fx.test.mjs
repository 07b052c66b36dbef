// Sound and motion (fx.js). Run: node --test web/jstest/

import { test } from 'node:test';
import assert from 'node:assert/strict';

const store = new Map();
globalThis.localStorage = { getItem: k => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)) };
let reduced = false;
globalThis.matchMedia = () => ({ matches: reduced });

const { cueOf, soundOn, motionOn, setSound, setMotion, play } = await import('../static/js/fx.js');

test('cues: a card, the player own turn, his settlement by its net', () => {
  assert.equal(cueOf({ kind: 'card', box: 1, card: 'AS' }, 'ana'), 'deal');
  assert.equal(cueOf({ kind: 'turn', turn: { players: ['ana'] } }, 'ana'), 'turn');
  assert.equal(cueOf({ kind: 'turn', turn: { players: ['ben'] } }, 'ana'), '');
  assert.equal(cueOf({ kind: 'settle', net: { ana: 500, ben: -500 } }, 'ana'), 'win');
  assert.equal(cueOf({ kind: 'settle', net: { ana: -500 } }, 'ana'), 'lose');
  assert.equal(cueOf({ kind: 'settle', net: { ana: 0 } }, 'ana'), 'push');
  assert.equal(cueOf({ kind: 'settle', net: { ben: 5 } }, 'ana'), '');
  assert.equal(cueOf({ kind: 'bet' }, 'ana'), '');
});

test('sound is off until turned on; motion on until turned off or reduced', () => {
  assert.equal(soundOn(), false);
  play('deal'); // off: nothing, and no audio needed
  setSound(true);
  assert.equal(soundOn(), true);
  setSound(false);
  assert.equal(soundOn(), false);
  assert.equal(motionOn(), true);
  setMotion(false);
  assert.equal(motionOn(), false);
  setMotion(true);
  reduced = true;
  assert.equal(motionOn(), false, 'prefers-reduced-motion wins');
});
