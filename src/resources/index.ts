import { discoverSections } from '../routes/discover';
import type { SectionDecl } from '../routes/types';

/**
 * Every section of the admin, found rather than listed: each folder `src/resources/<section>/` whose `index.ts`
 * default-exports its declaration, in the declarations' `order`. Menu, routes, titles and guard follow from them;
 * a new section is its folder, nothing here changes.
 */
export const sections: readonly SectionDecl[] = discoverSections(
  import.meta.glob<{ default?: SectionDecl }>('./*/index.ts', { eager: true }),
);
