// The account page's words for the breaks from play (account.js): each
// exclusion's length as a person says it, the choices shortest
// first. Pure functions, tested by node.

import { t } from './i18n.js';

// lengthText words an exclusion's length in days as a person says it: 7
// days are a week, 30 a month, 365 a year (5 years, not 1825
// days).
export function lengthText(days) {
  if (days >= 365 && days % 365 === 0) return t('care.years', { n: days / 365 });
  if (days >= 30 && days % 30 === 0) return t('care.months', { n: days / 30 });
  if (days >= 7 && days % 7 === 0) return t('care.weeks', { n: days / 7 });
  return t('care.days', { n: days });
}

// exclusionChoices are the breaks offered ({kind: [days]}), shortest first.
export function exclusionChoices(exclusions) {
  return Object.entries(exclusions || {}).flatMap(([kind, days]) => days.map(n => ({ kind, days: n }))).sort((a, b) => a.days - b.days);
}

// breakText names a break: its kind and length.
export function breakText(kind, days) {
  return t(kind === 'time-out' ? 'care.timeoutFor' : 'care.selfExclusionFor', { length: lengthText(days) });
}
