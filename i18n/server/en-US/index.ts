import type zh from '../zh-CN';
import actresses from './actresses';
import columns from './columns';
import core from './core';
import images from './images';
import movies from './movies';
import novels from './novels';
import settings from './settings';
import statistics from './statistics';

/** Messages the API puts in the envelope's `msg`, en-US; the same files as zh-CN. */
const en: Record<keyof typeof zh, string> = {
  ...core,
  ...movies,
  ...columns,
  ...novels,
  ...images,
  ...actresses,
  ...settings,
  ...statistics,
};
export default en;
