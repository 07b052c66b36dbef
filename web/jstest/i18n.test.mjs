// The page's languages (i18n.js): every catalogue has the English keys and
// the same {values}; t() with its values and plural forms; money, dates and
// percentages in each language's way. Run: node --test web/jstest/

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { t, setLang, getLang, pick, formatMoney, formatDate, setCurrency, refusal, phrase, CATALOGUES, SERVER_WORDED } from '../static/js/i18n.js';
import { money, plainMoney, parseMoney, cardName } from '../static/js/dom.js';
import { TableState, waitingText } from '../static/js/state.js';

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

const own = cat => Object.keys(cat).filter(k => !SERVER_WORDED.some(p => k.startsWith(p))).sort();

test('every catalogue has exactly the English keys, each with the same values', () => {
  const en = CATALOGUES.en;
  for (const [code, cat] of Object.entries(CATALOGUES)) {
    assert.deepEqual(own(cat), own(en), `${code}: keys differ from en`);
    for (const k of Object.keys(en)) {
      assert.equal(typeof cat[k], typeof en[k], `${code} ${k}: a plain message and a plural one`);
      const want = new Set(forms(en[k]).flatMap(x => names(x).split(',').filter(Boolean)));
      const got = new Set(forms(cat[k]).flatMap(x => names(x).split(',').filter(Boolean)));
      for (const n of got) assert.ok(want.has(n), `${code} ${k}: {${n}} is not a value of the message`);
      if (typeof en[k] === 'object') for (const f of forms(cat[k])) assert.ok(f.length > 0, `${code} ${k}: an empty form`);
    }
  }
});

// The phrases the server words in English (the rules, the significant
// events) are in Spanish and Italian alike: the Go tests check that the
// server says none the catalogues lack (TestRulePhrasesTranslated,
// TestEventPhrasesTranslated).
// English words the events only (the pit's events read like the
// rest of the page, amounts in the currency, dates, plurals), the same keys.
test('the server-worded phrases: Spanish and Italian have the same, English the events', () => {
  const worded = cat => Object.keys(cat).filter(k => SERVER_WORDED.some(p => k.startsWith(p))).sort();
  assert.deepEqual(worded(CATALOGUES.en), worded(CATALOGUES.es).filter(k => k.startsWith('event.')));
  for (const k of worded(CATALOGUES.en)) {
    assert.equal(forms(CATALOGUES.en[k]).map(names).sort().join(','), forms(CATALOGUES.es[k]).map(names).sort().join(','), `${k}: en and es name other values`);
  }
  assert.ok(worded(CATALOGUES.es).length > 100);
  assert.deepEqual(worded(CATALOGUES.it), worded(CATALOGUES.es));
  for (const k of worded(CATALOGUES.es)) {
    assert.equal(typeof CATALOGUES.it[k], typeof CATALOGUES.es[k], `${k}: a plain message and a plural one`);
    assert.equal(forms(CATALOGUES.it[k]).map(names).sort().join('|').replace(/\|/g, ','), forms(CATALOGUES.es[k]).map(names).sort().join('|').replace(/\|/g, ','), `${k}: es and it name other values`);
  }
});

test('a phrase: the catalogue\'s words, money as money, or the server\'s English', () => {
  const p = { key: 'limits.range', params: { min: 100000, max: 5000000 }, text: 'Stakes from 1,000.00 to 50,000.00' };
  withLang('en', () => assert.equal(phrase('rule.', p), 'Stakes from 1,000.00 to 50,000.00'));
  withLang('es', () => assert.equal(phrase('rule.', p), 'Apuestas de 1.000,00 a 50.000,00'));
  withLang('it', () => assert.equal(phrase('rule.', { key: 'shoe.decks', params: { n: 1 }, text: '1 deck of 52 cards' }), '1 mazzo da 52 carte'));
  withLang('es', () => assert.equal(phrase('rule.', { key: 'no.such', text: 'as said' }), 'as said'));
  withLang('es', () => assert.equal(phrase('event.', { text: '.' }), '.'));
  withLang('es', () => assert.equal(phrase('event.', { key: 'timeout', params: { round: 7, player: 'ana', box: 2, hand: 1, action: 'stand' }, text: '…' }),
    'ronda 7: se agotó el tiempo; ana, casillero 2 mano 1: plantarse por defecto'));
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
  // AR-03 in the lobby's words: seated players, then bets once
  // the shoe has started.
  withLang('en', () => assert.equal(say(), 'Deals with at least 3 seated players betting (AR-03). Placed now: 1 bet.'));
  withLang('en', () => assert.equal(waitingText({ ...waiting, params: { ...waiting.params, shoe: true } }), 'Goes on dealing this shoe while 3 bets are made (AR-03). Placed now: 1 bet.'));
  withLang('es', () => assert.equal(say(), 'Reparte con al menos 3 jugadores sentados que apuesten (AR-03). Ahora: 1 apuesta.'));
  withLang('it', () => {
    assert.equal(say(), 'Distribuisce con almeno 3 giocatori seduti che puntano (AR-03). Ora: 1 puntata.');
    assert.equal(refusal({ code: 'insufficient_funds', error: 'insufficient funds: …', reason: 'insufficient_funds', params: { held: 50, amount: 100000 } }),
      'Saldo insufficiente: il conto ha 0,50, servono 1.000,00.');
    assert.equal(refusal({ code: 'invalid', error: 'refused: box 1 may not double (AR-17)' }), 'refused: box 1 may not double (AR-17)');
    assert.equal(refusal({ code: 'invalid', error: 'x', reason: 'no_such_reason' }), 'x');
  });
});

test('the table\'s events that say why, in each language: a box given up, a bet the bank cannot cover, a void, the pit\'s change', () => {
  const events = [
    { kind: 'release', player: 'eve', box: 3, text: 'box 3 given up: held 30s with no round dealt (AR-21)', reason: 'box_given_up_idle', params: { box: 3, seconds: 30, rule: 'AR-21' } },
    { kind: 'withdraw', player: 'ben', box: 2, amount: 5000, text: 'refused before the deal: …', reason: 'bank_cannot_cover', params: { bank: 'ana', stake: 5000, funds: 2000, win: 7500, rule: 'FAM-01' } },
    { kind: 'configure', text: 'the table\'s configuration changed; max_bet: 300', words: [{ key: 'configure', text: 'the table\'s configuration changed' }, { key: 'option', params: { option: 'max_bet', value: '300' }, text: '; max_bet: 300' }] },
    { kind: 'deal', round: 5 },
    { kind: 'void', text: 'the cards ran out (AR-08)', reason: 'void_cards_out' },
  ];
  const say = () => {
    const s = new TableState(1, 'ana');
    s.snapshot('e', 1, { id: 1, name: 'Casa', rules: {}, seats: [{ box: 3, player: 'eve' }], bets: [{ player: 'ben', box: 2, stake: 5000 }], shoe: { id: 's', remaining: 50 } });
    return events.flatMap(e => s.apply(e)).map(x => x.text).filter(x => !x.startsWith('No') && !x.startsWith('Rien'));
  };
  withLang('en', () => assert.deepEqual(say(), [
    'eve: box 3 given up: held 30 s with no round dealt (AR-21).',
    'ben\'s bet on box 2 is returned: The bank, ana\'s, cannot cover a stake of 50.00: it covers bets in dealing order up to its funds, 20.00, and this one can win 75.00 (FAM-01).',
    'The pit: the table\'s configuration changed; max_bet: 300.',
    'The round is void: the cards ran out (AR-08). Every stake is returned.',
  ]));
  withLang('es', () => {
    const c = say();
    assert.equal(c[0], 'eve: deja el casillero 3: lo ocupó 30 s sin que se repartiera una ronda (AR-21).');
    assert.match(c[1], /^Se devuelve la apuesta de ben en el casillero 2: La banca de ana no puede cubrir una apuesta de 50,00: .* 20,00, y esta puede ganar 75,00 \(FAM-01\)\.$/);
    assert.match(c[2], /cambia la configuración de la mesa; max_bet: 300/);
    assert.match(c[3], /se acabaron las cartas \(AR-08\)/);
  });
  withLang('it', () => assert.match(say()[3], /le carte sono finite \(AR-08\)/));
});

// The decisions' keyboard shortcuts are words of the page's language: in
// each catalogue, each key is one letter of its button's word (L for
// Plantarse, O for No carta), and no two decisions share a key.
test('the decisions keys are letters of their own words in each language', async () => {
  const { ACTIONS, actionKey } = await import('../static/js/prompt.js');
  const bare = s => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  for (const code of Object.keys(CATALOGUES)) {
    withLang(code, () => {
      const seen = new Map();
      for (const a of [...ACTIONS, 'decline']) {
        const key = actionKey(a);
        assert.match(key, /^[a-z]$/, `${code} ${a}: key ${key}`);
        assert.ok(bare(t('action.' + a)).includes(key), `${code} ${a}: ${key} is not a letter of "${t('action.' + a)}"`);
        assert.ok(!seen.has(key), `${code}: ${a} and ${seen.get(key)} share the key ${key}`);
        seen.set(key, a);
      }
    });
  }
  withLang('es', () => assert.equal(actionKey('stand'), 'l'));
  withLang('en', () => assert.equal(actionKey('stand'), 's'));
});

test('the pit\'s watch: a return outside its band and a player flagged, figures in each language\'s way', () => {
  const rtp = { key: 'rtpOutside', params: { table: 3, n: 1200, rtp: 103.456789, low: 97.1, high: 101.9, certified: 99.5, z: 4.6123 }, text: 'rtp-outside: …' };
  const adv = { key: 'advantagePlay', params: { user: 'ana', table: 3, n: 80, hilo: 7.25, hiopt: 6.5 }, text: 'advantage-play: …' };
  withLang('en', () => {
    assert.equal(phrase('event.', rtp), "table 3's return to player is 103.46 % over 1200 rounds, outside 97.10 % to 101.90 % (the certified 99.50 %, 4.61 standard deviations off)");
    assert.equal(phrase('event.', adv), "ana's bets follow the count at table 3: over his 80 rounds, Hi-Lo z = 7.25, Hi-Opt II z = 6.50");
  });
  withLang('es', () => {
    assert.match(phrase('event.', rtp), /es del 103,46 % en 1200 rondas, fuera de la banda del 97,10 % al 101,90 %/);
    assert.match(phrase('event.', adv), /^las apuestas de ana siguen la cuenta en la mesa 3: en sus 80 rondas, z Hi-Lo = 7,25/);
  });
  withLang('it', () => {
    assert.match(phrase('event.', rtp), /è del 103,46 % su 1200 mani/);
    assert.match(phrase('event.', adv), /z Hi-Opt II = 6,50$/);
  });
});

// The pit's reports and ratings say whose win they show: the house's
// (a player who won 500.00 showed as -500.00 under "Win").
test('the reports name the house as the one who wins', () => {
  const house = { en: /house/i, es: /de la casa/, it: /del banco/ };
  for (const code of ['en', 'es', 'it']) {
    withLang(code, () => {
      for (const k of ['reports.win', 'reports.theo']) assert.match(t(k), house[code], `${code} ${k}: ${t(k)}`);
    });
  }
});

// The pit types and reads the money options as money (they
// were shown in minor units): max_bet=400.00 is sent as 40000,
// and 400,00 in Spanish and Italian.
test('the pit types money options as money', async () => {
  const { optionAmounts, optionText } = await import('../static/js/dom.js');
  assert.deepEqual(optionAmounts({ max_bet: '400.00', decks: '6', min_bet: 'x' }), { max_bet: '40000', decks: '6', min_bet: 'x' });
  assert.equal(optionText('max_bet', '40000'), 'max_bet=400.00');
  for (const code of ['es', 'it']) withLang(code, () => assert.deepEqual(optionAmounts({ payout_unit: '0,50' }), { payout_unit: '50' }, code));
});
