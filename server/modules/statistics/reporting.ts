/**
 * What other sections (ads, agents) use of statistics: the period and day of a report's request, the rollup's day
 * marks, the cached answers and parts, the sketches' merge and estimate, and the ingestion and rollup for their sample
 * data. They import this file only, so statistics' other files can change without reaching into theirs.
 */
export { ATTRIBUTED_SUMS } from './attributed-blocks';
export { RETURN_DAYS } from './attribution';
export { blockPairs, cover } from './blocks';
export { ingest, timeZoneOf } from './ingest';
export { cachedAnswer, cachePerDb, LATE_DAYS, periodParts, splitPeriod, sqlKey } from './report-cache';
export type { ReportAnswer } from './reports';
export { MARKED_DAYS, runRollup } from './rollup';
export { dayParam, periodOf, periodQuery } from './routes';
export { estimateStored, type MergedSketch, SketchArena, storedSketch, Union } from './sketch';
export { replayable } from './warm-reads';
