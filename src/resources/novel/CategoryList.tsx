import { columnTreeScreens } from '../../components/ColumnTree';
import { COLUMN_RESOURCE, SECTION_MSG } from './names';

/** Column management of the novels (/novel/category): the shared column tree screens. */
export const { CategoryList, CategoryCreate, CategoryEdit } = columnTreeScreens({
  resource: COLUMN_RESOURCE,
  title: `${SECTION_MSG}.menu.category`,
});
