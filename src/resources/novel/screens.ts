/** The novel section's screens, one chunk loaded with the first of them. */

export { CategoryCreate, CategoryEdit, CategoryList } from './CategoryList';
export { ChapterEdit } from './ChapterEdit';
export { ChapterList } from './ChapterList';
export { NovelEdit } from './NovelEdit';
export { NovelList } from './NovelList';
