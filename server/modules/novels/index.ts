import { OpenAPIHono } from '@hono/zod-openapi';
import { columnTreeRoutes } from '../../core/column-tree';
import type { AppEnv } from '../../core/context';
import { asAdmin, asAnyOperator, security } from '../operators';
import { chapterRoutes } from './chapter-routes';
import { importRoutes } from './import-routes';
import { novelRoutes } from './novel-routes';
import { novelColumns, novels } from './schema';

/**
 * Novels (SPEC.md §2 /novel): the novels with their review rules, their chapters (numbered, reordered, imported from
 * TXT files) and the column tree they are filed under. Reading, reviewing and editing novels and chapters is every
 * operator's work; deleting a novel and managing the columns are admin-only.
 */
export default function novelsModule() {
  const app = new OpenAPIHono<AppEnv>();
  app.route('/', novelRoutes());
  app.route('/', chapterRoutes());
  app.route('/', importRoutes());
  app.route(
    '/',
    columnTreeRoutes({
      path: '/admin/novel/columns',
      tag: 'novel columns',
      schemaName: 'NovelColumn',
      table: novelColumns,
      items: novels,
      itemName: 'novel',
      read: asAnyOperator,
      write: asAdmin,
      security,
    }),
  );
  return app;
}
