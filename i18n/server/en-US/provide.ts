import type zh from '../zh-CN/provide';

/** Messages of the provide API (MacCMS's /api.php/provide/vod/), en-US. */
const provide: Record<keyof typeof zh, string> = {
  'provide.closed': 'This site does not serve its catalogue to collectors',
  'provide.key': 'Wrong API key',
  'provide.int': 'Parameter {param} must be a whole number from {min} to {max}',
  'provide.enum': 'Parameter {param} must be one of {values}',
  'provide.ids': 'Parameter ids must be ids separated by commas, at most {max}',
  'provide.tooLong': 'Parameter {param} must be at most {max} characters',
  'provide.pageTooLarge':
    'This page’s chapters come to {size} MB, over the {max} MB limit: ask with a smaller pagesize, or a few ids at a time',
};
export default provide;
