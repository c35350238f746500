import { columnTreeScreens } from '../../components/ColumnTree';

export { type Column, type ColumnNode, columnTree } from '../../components/ColumnTree';

/** Column management of the movies (/movie/category): the shared column tree screens. */
export const { CategoryList, CategoryCreate, CategoryEdit } = columnTreeScreens({
  resource: 'movie/category',
  title: 'shell.menu.category',
});
