import type zh from '../zh-CN';
import actresses from './actresses';
import ad from './ad';
import agents from './agents';
import collect from './collect';
import columnTree from './column-tree';
import comment from './comment';
import core from './core';
import domain from './domain';
import fields from './fields';
import images from './images';
import movie from './movie';
import notices from './notices';
import novel from './novel';
import operators from './operators';
import promotionApps from './promotion-apps';
import review from './review';
import site from './site';
import statistics from './statistics';
import users from './users';

/** Messages the API puts in the envelope's `msg`, en-US; the same files as zh-CN. */
const en: Record<keyof typeof zh, string> = {
  ...core,
  ...fields,
  ...review,
  ...columnTree,
  ...actresses,
  ...ad,
  ...comment,
  ...images,
  ...movie,
  ...notices,
  ...novel,
  ...operators,
  ...promotionApps,
  ...site,
  ...statistics,
  ...collect,
  ...domain,
  ...users,
  ...agents,
};
export default en;
