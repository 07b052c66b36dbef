// The page's languages (i18n.js): every catalogue has the English keys and
// the same {values}; t() with its values and plural forms; money, dates and
// percentages in each language's way. Run: node --test web/jstest/

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { t, setLang, getLang, pick, formatMoney, formatDate, setCurrency, refusal, CATALOGUES } from '../static/js/i18n.js';
import { money, plainMoney, parseMoney, cardName } from '../static/js/dom.js';
import { TableState } from '../static/js/state.js';

function withLang(code, f) {
  const was = getLang();
  setLang(code, false);
  try {
    f();
  } finally {
    setLang(was, false);
  }
}

const names = s => [...String(s).matchAll(/\{(\w+)\}/g)].map(m => m[1]).sort().join(',');
const forms = v => (typeof v === 'object' ? Object.values(v) : [v]);

test('every catalogue has exactly the English keys, each with the same values', () => {
  const en = CATALOGUES.en;
  for (const [code, cat] of Object.entries(CATALOGUES)) {
    assert.deepEqual(Object.keys(cat).sort(), Object.keys(en).sort(), `${code}: keys differ from en`);
    for (const k of Object.keys(en)) {
      assert.equal(typeof cat[k], typeof en[k], `${code} ${k}: a plain message and a plural one`);
      const want = new Set(forms(en[k]).flatMap(x => names(x).split(',').filter(Boolean)));
      const got = new Set(forms(cat[k]).flatMap(x => names(x).split(',').filter(Boolean)));
      for (const n of got) assert.ok(want.has(n), `${code} ${k}: {${n}} is not a value of the message`);
      if (typeof en[k] === 'object') for (const f of forms(cat[k])) assert.ok(f.length > 0, `${code} ${k}: an empty form`);
    }
  }
});

test('the language is the first of the browser\'s the page speaks, else English', () => {
  assert.equal(pick(['es-AR', 'en']), 'es');
  assert.equal(pick(['de-DE', 'it-IT', 'es']), 'it');
  assert.equal(pick(['fr', 'de']), 'en');
  assert.equal(pick(undefined), 'en');
});

test('t: values, a missing key, plural forms in each language', () => {
  withLang('en', () => {
    assert.equal(t('call.bet', { player: 'ana', amount: '10.00', box: 3 }), 'ana bets 10.00 on box 3.');
    assert.equal(t('no.such.key'), 'no.such.key');
    assert.equal(t('count.bets', { n: 1 }), '1 bet');
    assert.equal(t('count.bets', { n: 3 }), '3 bets');
    assert.equal(t('count.bets', { n: 0 }), '0 bets');
  });
  withLang('es', () => {
    assert.equal(t('action.hit'), 'Pedir');
    assert.equal(t('action.stand'), 'Plantarse');
    assert.equal(t('count.bets', { n: 1 }), '1 apuesta');
    assert.equal(t('count.bets', { n: 3 }), '3 apuestas');
    assert.equal(t('reason.table_minimum_bets', { need: 3, n: 1, rule: 'AR-03' }), 'La mesa reparte con al menos 3 apuestas (AR-03); tiene 1 apuesta.');
  });
  withLang('it', () => {
    assert.equal(t('action.hit'), 'Carta');
    assert.equal(t('action.stand'), 'No carta');
    assert.equal(t('count.rounds', { n: 1 }), '1 mano');
    assert.equal(t('count.rounds', { n: 2 }), '2 mani');
  });
});

test('money in each language: grouping, decimals, the minus sign, a currency', () => {
  withLang('en', () => {
    assert.equal(money(123456), '1,234.56');
    assert.equal(money(-500), '−5.00');
    assert.equal(plainMoney(123450), '1234.50');
    assert.equal(parseMoney('1,234.5'), 123450);
  });
  for (const code of ['es', 'it']) {
    withLang(code, () => {
      assert.equal(money(100000), '1.000,00', code);
      assert.equal(money(123456789), '1.234.567,89', code);
      assert.equal(money(-250), '−2,50', code);
      assert.equal(plainMoney(123450), '1234,50', code);
      assert.equal(parseMoney('1.234,5'), 123450, code);
      assert.equal(parseMoney('12,50'), 1250, code);
      assert.equal(parseMoney('12.50'), 1250, code);
      assert.ok(Number.isNaN(parseMoney('12,505')), code);
      setCurrency('EUR');
      try {
        assert.equal(formatMoney(100000).replace(/\u00a0/g, ' '), '1.000,00 €', code);
      } finally {
        setCurrency('');
      }
    });
  }
});

test('dates in each language', () => {
  const when = Date.UTC(2026, 10, 24, 12, 0, 0);
  const opts = { dateStyle: 'long', timeZone: 'UTC' };
  withLang('en', () => assert.equal(formatDate(when, opts), '24 November 2026'));
  withLang('es', () => assert.equal(formatDate(when, opts), '24 de noviembre de 2026'));
  withLang('it', () => assert.equal(formatDate(when, opts), '24 novembre 2026'));
});

test('the dealer\'s calls in each language', () => {
  const calls = () => {
    const s = new TableState(1, 'ana');
    s.snapshot('e', 1, { id: 1, name: 'Madrid', rules: {}, seats: [{ box: 1, player: 'ana' }], bets: [], shoe: { id: 's', remaining: 300 } });
    return [
      { kind: 'deal', round: 4 },
      { kind: 'card', box: 1, hand: 1, card: 'QH' },
      { kind: 'card', box: 1, hand: 1, card: '8S' },
      { kind: 'action', action: { box: 1, hand: 1, player: 'ana', action: 'stand' } },
    ].flatMap(e => s.apply(e));
  };
  withLang('en', () => {
    const c = calls();
    assert.deepEqual(c.map(x => x.text), ['No more bets. Round 4.', 'Box 1: Q♥.', 'Box 1: 8♠, 18.', 'Box 1 stands on 18.']);
    assert.equal(c[1].speech, 'Box 1: the queen of hearts.');
  });
  withLang('es', () => {
    const c = calls();
    assert.deepEqual(c.map(x => x.text), ['No va más. Ronda 4.', 'Casillero 1: Q♥.', 'Casillero 1: 8♠, 18.', 'Casillero 1 se planta con 18.']);
    assert.equal(c[1].speech, 'Casillero 1: la reina de corazón.');
  });
  withLang('it', () => {
    const c = calls();
    assert.deepEqual(c.map(x => x.text), ['Rien ne va plus. Mano 4.', 'Postazione 1: Q♥.', 'Postazione 1: 8♠, 18.', 'Postazione 1: no carta, con 18.']);
    assert.equal(cardName('AS'), 'l’asso di picche');
  });
});

test('a refusal worded from its reason, else the server\'s text', () => {
  const waiting = { kind: 'waiting', text: 'refused: a shoe starts with 3 bets; 1 placed (AR-03)', reason: 'table_minimum_bets', params: { need: 3, n: 1, rule: 'AR-03' } };
  const say = () => {
    const s = new TableState(1, 'ana');
    s.snapshot('e', 1, { id: 1, name: 'Buenos Aires', rules: {}, seats: [], bets: [], shoe: { id: 's', remaining: 300 } });
    return s.apply(waiting)[0].text;
  };
  withLang('en', () => assert.equal(say(), 'The table deals with at least 3 bets (AR-03); it has 1 bet.'));
  withLang('es', () => assert.equal(say(), 'La mesa reparte con al menos 3 apuestas (AR-03); tiene 1 apuesta.'));
  withLang('it', () => {
    assert.equal(say(), 'Il tavolo distribuisce con almeno 3 puntate (AR-03); ne ha 1.');
    assert.equal(refusal({ code: 'insufficient_funds', error: 'insufficient funds: …', reason: 'insufficient_funds', params: { held: 50, amount: 100000 } }),
      'Saldo insufficiente: il conto ha 0,50, servono 1.000,00.');
    assert.equal(refusal({ code: 'invalid', error: 'refused: box 1 may not double (AR-17)' }), 'refused: box 1 may not double (AR-17)');
    assert.equal(refusal({ code: 'invalid', error: 'x', reason: 'no_such_reason' }), 'x');
  });
});
