/** The barrel drizzle-kit reads: every module's tables. A new module adds one line here. */

export * from '../modules/actresses/schema';
export * from '../modules/ad/schema';
export * from '../modules/agents/schema';
export * from '../modules/collect/schema';
export * from '../modules/comment/schema';
export * from '../modules/domain/schema';
export * from '../modules/movie/schema';
export * from '../modules/notices/schema';
export * from '../modules/novel/schema';
export * from '../modules/operators/schema';
export * from '../modules/promotion-apps/schema';
export * from '../modules/site/schema';
export * from '../modules/statistics/schema';
export * from '../modules/statistics-settings/schema';
export * from '../modules/sys/schema';
export * from '../modules/users/schema';
