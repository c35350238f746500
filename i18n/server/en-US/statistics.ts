import type zh from '../zh-CN/statistics';

/** API messages of the statistics module (ingestion, reports, demand gap), en-US. */
const statistics: Record<keyof typeof zh, string> = {
  'stats.timeRange': 'Out of range: at most {days} days ago and at most 1 day ahead',
  'stats.path': 'Should start with /',
  'stats.toBeforeFrom': 'The end date must not be before the start date',
  'stats.periodTooLong': 'At most {days} days',
  'stats.aliasOnlyActress': 'Only an actress takes an alias; choose tag for a movie or a novel',
  'stats.rollupStuck':
    'The statistics of these days could not be rolled up, and retrying will not fix it; the other days were rolled up: {days} ({error}). See Statistics settings',
  'field.timeZone': 'Should be a time zone name such as Asia/Shanghai',
};
export default statistics;
