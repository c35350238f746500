import { novelPermissions } from '../../../common/permissions/novel';
import { can, security } from '../../core/auth';
import { columnTreeRoutes } from '../../core/column-tree';
import { defineModule } from '../../core/module';
import { chapterOrderRoutes, chapterRoutes } from './chapter-routes';
import { importRoutes } from './import-routes';
import { novelRoutes } from './novel-routes';
import { novelColumns, novels } from './schema';

/**
 * Novels (SPEC.md §2 /novel, API /app/admin/novel): the novels with their review rules, their chapters (numbered,
 * reordered, imported from TXT files) and the column tree they are filed under. Reading, reviewing and editing
 * novels and chapters is every operator's work; deleting a novel and managing the columns are admin-only.
 */
export default defineModule({
  name: 'novel',
  permissions: [novelPermissions],
  order: 70,
  mount: {
    '/admin/novel/novels': () => novelRoutes().route('/', importRoutes()).route('/', chapterOrderRoutes()),
    '/admin/novel/chapters': chapterRoutes,
    '/admin/novel/columns': () =>
      columnTreeRoutes({
        tag: 'novel columns',
        schemaName: 'NovelColumn',
        table: novelColumns,
        items: novels,
        itemName: 'novel',
        read: can('novel.read'),
        write: can('novel.settings'),
        security,
      }),
  },
});
