import { statisticsRoutes } from './routes';

/**
 * Statistics (issue #12): the content site's events (POST /app/site/events), raw in day partitions, folded by the
 * rollup into daily and hourly tables per dimension; the reports read only those (CONTRACT.md).
 */
export default function statisticsModule() {
  return statisticsRoutes();
}

export { runRollup } from './rollup';
