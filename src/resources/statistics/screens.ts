/** The stats section's screens, one chunk loaded with the first of them. */

export { MovieStats, TagStats } from './ContentStats';
export { DomainHours, DomainStats } from './DomainStats';
export { DomainVisitDetail, DomainVisits } from './DomainVisits';
export { HotKeywords } from './HotKeywords';
