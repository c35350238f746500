import type zh from '../zh-CN/column-tree';

/** API messages of the column trees (core/column-tree.ts: movies and novels), en-US. */
const columns: Record<keyof typeof zh, string> = {
  'column.hasItems': 'This column still holds {count} items; move them to another column first',
  'column.hasChildren': 'This column still has {count} sub-columns; delete or move them first',
  'column.cycle': 'A column cannot be moved under itself or one of its sub-columns',
  'column.sameTarget': 'The target column must differ from this one',
};
export default columns;
