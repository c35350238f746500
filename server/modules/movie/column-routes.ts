import { can, security } from '../../core/auth';
import { columnTreeRoutes } from '../../core/column-tree';
import { movieColumns, movies } from './schema';

/** Movie columns: the column tree of core/column-tree.ts over `movie_columns`, filing `movies`. */
export const columnRoutes = () =>
  columnTreeRoutes({
    tag: 'movie columns',
    schemaName: 'MovieColumn',
    table: movieColumns,
    items: movies,
    itemName: 'movie',
    read: can('movie.read'),
    write: can('movie.settings'),
    security,
  });
