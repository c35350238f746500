import type zh from '../zh-CN/site';

/** API messages of the site module, en-US. */
const site: Record<keyof typeof zh, string> = {
  'site.badKey': 'The site key is missing or wrong',
  'site.unknownPlatform': 'No such platform: {platform}',
};
export default site;
