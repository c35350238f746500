import type en from '../../en-US/resources';
import actress from './actresses';
import ad from './ad';
import agents from './agents';
import comment from './comment';
import domain from './domain';
import movie from './movie';
import novel from './novel';
import setting from './setting';
import stats from './statistics';
import users from './users';

/** 各版块的资源文案，每个版块一个文件（结构同 en-US）。 */
const resources: typeof en = {
  ...movie,
  ...actress,
  ...novel,
  ...ad,
  ...comment,
  ...stats,
  ...domain,
  ...setting,
  ...users,
  ...agents,
};
export default resources;
