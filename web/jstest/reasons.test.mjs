// Every refusal in the page's language: the server's reasons,
// its general ones (error_CODE), and the rules a refusal cites.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { refusal, setLang } from '../static/js/i18n.js';

function inLang(code, f) {
  setLang(code, false);
  try { return f(); } finally { setLang('en', false); }
}

test('a refusal with its code\'s general reason: the server\'s line in English, the general words elsewhere', () => {
  const e = { code: 'invalid', error: 'unknown card "X" (want AS, TD, …)', reason: 'error_invalid' };
  assert.equal(inLang('en', () => refusal(e)), 'unknown card "X" (want AS, TD, …)');
  assert.equal(inLang('es', () => refusal(e)), 'Se ha rechazado la petición: revise lo que ha escrito.');
  assert.equal(inLang('it', () => refusal({ ...e, params: { rule: 'AR-22' } })), 'La richiesta è stata rifiutata: controllate quanto inserito (AR-22).');
});

test('a refusal cites the rules its words do not name', () => {
  const e = { error: 'refused: no bet once the first card has left the shoe (ES-01)', reason: 'bets_closed', params: { rule: 'ES-01' } };
  assert.equal(inLang('es', () => refusal(e)), 'No se apuesta una vez que la primera carta ha salido del sabot (ES-01).');
  assert.equal(inLang('it', () => refusal({ reason: 'login_failed' })), 'Nome sconosciuto o password errata.');
});
