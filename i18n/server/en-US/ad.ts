import type zh from '../zh-CN/ad';

/** API messages of the ad module, en-US. */
const ad: Record<keyof typeof zh, string> = {
  'ad.priceCents': 'At most two decimals',
  'ad.videoUrl': 'The pre-roll video must be an http:// or https:// address',
  'ad.endBeforeStart': 'The end must be after the start',
  'ad.positionKey':
    'Lower-case letters, digits, underscores and hyphens only, starting with a letter or digit',
  'ad.fallbackElsewhere': 'The fallback material must belong to this position',
  'ad.isFallback': "This material is its position's fallback and cannot move to another position",
  'ad.positionInUse': 'Position {ids} still holds {count} materials and cannot be deleted',
  'ad.advertiserInUse': 'Advertiser {ids} still has {count} materials and cannot be deleted',
  'ad.replaceScope': 'Select materials, or give a filter',
  'ad.replaceTooMany': 'At most {max} materials at once; narrow the filter',
  'ad.replaceNothing': 'No landing URL contains what you are looking for',
  'ad.replaceBadResult': 'These materials would not have an http(s) URL: {ids}',
  'ad.replaceStale': 'These materials changed after the preview; preview again: {ids}',
  'ad.rollbackConflict':
    'These materials were edited or deleted after this change set; it cannot be rolled back: {ids}',
  'ad.alreadyRolledBack': 'This change set has been rolled back already',
  'ad.pattern.tooLong': 'The pattern is empty or longer than 200 characters',
  'ad.pattern.syntax': 'Not a valid regular expression',
  'ad.pattern.unsupported':
    'Back-references (\\1) and lookaround ((?=…), (?<=…)) are not supported; rewrite the pattern',
  'ad.pattern.result':
    'A replaced link would be too long (over 16,384 characters); does the pattern match the empty string?',
};
export default ad;
