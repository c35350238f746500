import type zh from '../zh-CN/settings';

/** API messages of the settings section (notices, promotion, site, statistics-settings, system modules), en-US. */
const settings: Record<keyof typeof zh, string> = {
  'field.datetime': 'Should be a date-time with its offset, e.g. 2026-06-01T08:00:00+08:00',
  'field.duplicate': 'Must not repeat an item',
  'field.image': 'Should be an uploaded image or an http(s) address',
  'field.httpUrl': 'Should be an address starting with http:// or https://',
  'notice.endBeforeStart': 'The end must be after the start',
  'promotion.tooMany': 'At most {max} promotion apps',
  'promotion.reorderStale': 'Someone else changed the app list; reload and reorder again',
  'site.badKey': 'The site key is missing or wrong',
  'site.unknownPlatform': 'No such platform: {platform}',
};
export default settings;
