/** The movie section's screens, one chunk loaded with the first of them (they share most of their code). */
export { CategoryCreate, CategoryEdit, CategoryList } from './CategoryList';
export { OnlineEdit, ReviewCreate, ReviewEdit } from './MovieEdit';
export { OnlineList, ReviewList } from './MovieList';
export { SourceCreate, SourceEdit, SourceList } from './SourceList';
export { TagCreate, TagEdit, TagList } from './TagList';
