import actresses from './actresses';
import columns from './columns';
import core from './core';
import images from './images';
import movies from './movies';
import novels from './novels';
import settings from './settings';
import statistics from './statistics';

/**
 * Messages the API puts in the envelope's `msg`, zh-CN: the core's, then one file per module. A module adds its
 * file and one line here (and the same in en-US, which the type checker then demands key by key).
 */
const zh = { ...core, ...movies, ...columns, ...novels, ...images, ...actresses, ...settings, ...statistics };
export default zh;
