import { columnTreeScreens } from '../../components/ColumnTree';
import { COLUMN_RESOURCE, SECTION_MSG } from './names';

export { type Column, type ColumnNode, columnTree } from '../../components/ColumnTree';

/** Column management of the movies (/movie/category): the shared column tree screens. */
export const { CategoryList, CategoryCreate, CategoryEdit } = columnTreeScreens({
  resource: COLUMN_RESOURCE,
  title: `${SECTION_MSG}.menu.category`,
});
