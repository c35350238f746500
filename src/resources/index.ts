import type { SectionDecl } from '../routes/types';
import actress from './actresses';
import ad from './ad';
import agents from './agents';
import comment from './comment';
import domain from './domain';
import movie from './movie';
import novel from './novel';
import setting from './setting';
import stats from './statistics';
import users from './users';

/** Every section of the admin. Registering a new one is one line here; menu, routes, titles and guard follow. */
export const sections: readonly SectionDecl[] = [
  movie,
  actress,
  novel,
  ad,
  agents,
  comment,
  stats,
  domain,
  setting,
  users,
];
