import type zh from '../zh-CN/promotion-apps';

/** API messages of the promotion-apps module, en-US. */
const promotionApps: Record<keyof typeof zh, string> = {
  'promotion.tooMany': 'At most {max} promotion apps',
  'promotion.reorderStale': 'Someone else changed the app list; reload and reorder again',
};
export default promotionApps;
