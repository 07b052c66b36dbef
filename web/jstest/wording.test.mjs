// The player's page: true calls, the VE-13 choice, the even-money
// window under a ten, split hands in the history, the breaks worded by
// length, limits that take a double or a split off the decision, a lone
// player's wait, refusals worded in the page's language.
// Run: node --test web/jstest/

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { setLang, getLang, refusal, sentence } from '../static/js/i18n.js';
import { TableState, evenCall } from '../static/js/state.js';
import { statusLine, duration, phaseName } from '../static/js/status.js';
import { promptButtons, promptHeading, careRefuses, declines } from '../static/js/prompt.js';
import { betLine } from '../static/js/history.js';
import { lengthText, exclusionChoices, breakText } from '../static/js/care.js';

function withLang(code, f) {
  const was = getLang();
  setLang(code, false);
  try {
    f();
  } finally {
    setLang(was, false);
  }
}

const RULES = { boxes: 7, min_bet: 100, max_bet: 100000, decision_ms: 15000, window_ms: 8000, bet_window_ms: 20000, seat_idle_ms: 30000 };

function table(profile = 'venice') {
  const s = new TableState(2, 'ana');
  s.snapshot('e1', 10, { id: 2, name: 'T', profile, rules: RULES, seats: [{ box: 1, player: 'ana' }, { box: 2, player: 'ana' }], bets: [], shoe: { id: 's1', remaining: 300 } });
  return s;
}

const says = (s, ...events) => events.flatMap(e => s.apply(e)).map(x => x.text);

test('a round netting 0 from a win and a loss says so, not "stakes returned"', () => {
  withLang('en', () => {
    const s = table();
    says(s, { kind: 'deal', round: 1 },
      { kind: 'stake', player: 'ana', box: 1, bet: 'main', amount: 1000 },
      { kind: 'stake', player: 'ana', box: 2, bet: 'main', amount: 1000 },
      { kind: 'result', player: 'ana', box: 1, bet: 'main', result: 'win', amount: 1000 },
      { kind: 'result', player: 'ana', box: 2, bet: 'main', result: 'lose', amount: -1000 });
    assert.deepEqual(says(s, { kind: 'settle', round: 1, net: { ana: 0 } }), ['You win 10.00 and lose 10.00: net 0.']);
    assert.equal(evenCall([{ net: 0 }]), 'You break even: your stakes are returned.');
  });
  withLang('es', () => assert.equal(evenCall([{ net: 500 }, { net: -500 }]), 'Gana 5,00 y pierde 5,00: queda igual.'));
});

test('the insurance window under a ten is even money, called so (VE-16)', () => {
  withLang('en', () => {
    const s = table();
    says(s, { kind: 'deal', round: 1 }, { kind: 'card', box: 0, card: 'KD' });
    assert.deepEqual(says(s, { kind: 'window', phase: 'insurance' }), ['Even money is open.']);
    assert.equal(promptHeading('insurance', s), 'Even money?');
    assert.equal(phaseName('insurance', s), 'Even money');
    const a = table();
    says(a, { kind: 'deal', round: 1 }, { kind: 'card', box: 0, card: 'AD' });
    assert.deepEqual(says(a, { kind: 'window', phase: 'insurance' }), ['Insurance and even money are open.']);
    assert.equal(promptHeading('insurance', a), 'Insurance?');
  });
});

test('the VE-13 choice: one button a choice, 11 marked as the default, keys in the page\'s language', () => {
  const ls = [{ action: 'declare', value: 11 }, { action: 'declare', value: 1 }];
  for (const [lang, eleven] of [['en', 'e'], ['es', 'o'], ['it', 'u']]) {
    withLang(lang, () => {
      const b = promptButtons('ace-choice', ls);
      assert.deepEqual(b.map(x => x.key), ['1', eleven]);
      assert.deepEqual(b.map(x => !!x.def), [false, true]);
    });
  }
  assert.equal(declines('ace-choice'), false, 'no "keep 11" beside "counts 11"');
  assert.equal(declines('insurance'), true);
  // The status names the default as the button does.
  withLang('it', () => {
    const s = table();
    says(s, { kind: 'deal', round: 1 });
    s.turn = { phase: 'ace-choice', box: 1, hand: 1, players: ['ana'], legal: ls.map(l => ({ ...l, player: 'ana', box: 1, hand: 1 })), default: 'close', deadline: 10_000 };
    const text = statusLine(s, 0).text;
    assert.match(text, /l'asso vale 11/i);
    assert.doesNotMatch(text, /no, grazie/i);
  });
});

test('the history names each hand of a split box, the first too', () => {
  withLang('en', () => {
    const bets = [{ box: 2, hand: 1, kind: 'main', result: 'lose', net: -500, total: 18 }, { box: 2, hand: 2, kind: 'split', result: 'win', net: 500, total: 20 }, { box: 3, hand: 1, kind: 'main', result: 'push', net: 0, total: 19 }];
    assert.deepEqual(bets.map(b => betLine(b, bets)), ['Box 2 hand 1: lose with 18 −5.00', 'Box 2 hand 2 (split): win with 20 +5.00', 'Box 3: push with 19 0.00']);
  });
});

test('breaks: shortest first, each length worded (5 years, not 1825 days)', () => {
  const c = exclusionChoices({ 'self-exclusion': [180, 365, 1825], 'time-out': [1, 7, 30] });
  assert.deepEqual(c.map(x => x.days), [1, 7, 30, 180, 365, 1825]);
  withLang('en', () => {
    assert.deepEqual(c.map(x => breakText(x.kind, x.days)), ['Time-out: 1 day', 'Time-out: 1 week', 'Time-out: 1 month', 'Self-exclusion: 6 months', 'Self-exclusion: 1 year', 'Self-exclusion: 5 years']);
    assert.equal(lengthText(10), '10 days');
  });
  withLang('es', () => assert.equal(lengthText(1825), '5 años'));
  withLang('it', () => assert.equal(lengthText(365), '1 anno'));
});

test('a double or a split past the player\'s limits is not offered', () => {
  assert.equal(careRefuses('double', 500, 1000), true);
  assert.equal(careRefuses('split', 1000, 1000), false);
  assert.equal(careRefuses('hit', 0, 1000), false);
  assert.equal(careRefuses('double', undefined, 1000), false, 'no limit');
  assert.equal(careRefuses('double', 500, 1000, true), false, 'VE-19: a double for less');
  assert.equal(careRefuses('double', 0, 1000, true), true);
});

test('a lone player\'s wait in the server\'s own unit', () => {
  withLang('en', () => {
    assert.equal(duration(30000), '30 seconds');
    assert.equal(duration(90000), '1 min 30 s');
    assert.equal(duration(600000), '10 minutes');
  });
  withLang('it', () => assert.equal(duration(30000), '30 secondi'));
});

test('refusals in the page\'s language: a name taken, the operator\'s own words marked as his, no network', () => {
  withLang('es', () => {
    assert.equal(refusal({ reason: 'name_taken', params: { name: 'ana' }, error: 'the name "ana" is taken' }), 'El nombre ana ya está en uso: elija otro.');
    assert.equal(refusal({ reason: 'operator_refused', params: { reason: 'player_blocked', message: 'Account blocked' }, error: "refused by the operator's wallet: Account blocked" }), 'Rechazado por su operador, que dice: «Account blocked»');
    assert.equal(refusal({ reason: 'network', error: 'the server cannot be reached' }), 'No se puede contactar con el servidor.');
  });
});

// The stand-by of bets that cannot be dealt cites AR-21
// at an Argentine table only; a venice table (VE-20's lone customer) cites
// no other regulation's rule.
test('the wait cites its own regulation', async () => {
  const { waitRule } = await import('../static/js/state.js');
  assert.equal(waitRule('argentina'), ' (AR-21)');
  for (const p of ['venice', 'spain', 'family', 'vegas-s17']) assert.equal(waitRule(p), '');
});

test('a configuration change says a money option as money in the page\'s language, not minor units', () => {
  const words = [{ key: 'configure', text: "the table's configuration changed" },
    { key: 'optionMoney', params: { option: 'max_bet', amount: 40000 }, text: '; max_bet: 400.00' }];
  const want = { en: "the table's configuration changed; max_bet: 400.00", es: 'cambia la configuración de la mesa; max_bet: 400,00', it: 'cambia la configurazione del tavolo; max_bet: 400,00' };
  for (const [lang, line] of Object.entries(want)) withLang(lang, () => assert.equal(sentence('event.', words), line));
});
