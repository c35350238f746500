import type zh from '../zh-CN/notices';

/** API messages of the notices module, en-US. */
const notices: Record<keyof typeof zh, string> = {
  'notice.endBeforeStart': 'The end must be after the start',
};
export default notices;
