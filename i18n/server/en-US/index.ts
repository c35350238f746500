import type zh from '../zh-CN';
import actresses from './actresses';
import columnTree from './column-tree';
import core from './core';
import images from './images';
import movie from './movie';
import notices from './notices';
import novel from './novel';
import operators from './operators';
import promotionApps from './promotion-apps';
import review from './review';
import site from './site';
import statistics from './statistics';

/** Messages the API puts in the envelope's `msg`, en-US; the same files as zh-CN. */
const en: Record<keyof typeof zh, string> = {
  ...core,
  ...review,
  ...columnTree,
  ...actresses,
  ...images,
  ...movie,
  ...notices,
  ...novel,
  ...operators,
  ...promotionApps,
  ...site,
  ...statistics,
};
export default en;
