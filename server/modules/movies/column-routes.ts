import { columnTreeRoutes } from '../../core/column-tree';
import { asAdmin, asAnyOperator, security } from '../operators';
import { movieColumns, movies } from './schema';

/** Movie columns: the column tree of core/column-tree.ts over `movie_columns`, filing `movies`. */
export const columnRoutes = () =>
  columnTreeRoutes({
    path: '/admin/movie/columns',
    tag: 'movie columns',
    schemaName: 'MovieColumn',
    table: movieColumns,
    items: movies,
    itemName: 'movie',
    read: asAnyOperator,
    write: asAdmin,
    security,
  });
