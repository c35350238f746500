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

/**
 * Every section's resource messages in react-admin's shape: resources.<resource>.{name, fields, filters, action,
 * notifications, page}. One file per section (the resource name is the screen's path); a section adds its file
 * and one line here, and the same in zh-CN, whose types demand every key.
 */
const resources = {
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
