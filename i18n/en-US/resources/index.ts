import actress from './actress';
import movie from './movie';
import novel from './novel';
import setting from './setting';
import stats from './stats';

/**
 * Every section's resource messages in react-admin's shape: resources.<resource>.{name, fields, filters, action,
 * notifications, page}. One file per section (the resource name is the screen's path); a section adds its file
 * and one line here, and the same in zh-CN, whose types demand every key.
 */
const resources = { ...movie, ...actress, ...novel, ...stats, ...setting };
export default resources;
