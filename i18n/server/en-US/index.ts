import { mergeMessages } from '../../discover';
import type zh from '../zh-CN';

/**
 * Messages the API puts in the envelope's `msg`, en-US: the same files as zh-CN, found rather than listed.
 * tests/ui/i18n-bundles.test.ts checks that both have the same keys and placeholders.
 */
const en = mergeMessages<Record<keyof typeof zh, string>>(
  import.meta.glob<{ default: Record<keyof typeof zh, string> }>(['./*.ts', '!./index.ts'], { eager: true }),
);
export default en;
