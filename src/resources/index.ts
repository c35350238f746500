import type { SectionDecl } from '../routes/types';
import actress from './actress';
import movie from './movie';
import novel from './novel';
import setting from './setting';
import stats from './stats';

/** Every section of the admin. Registering a new one is one line here; menu, routes, titles and guard follow. */
export const sections: readonly SectionDecl[] = [movie, actress, novel, stats, setting];
