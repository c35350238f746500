/** The barrel drizzle-kit reads: every module's tables. A new module adds one line here. */

export * from '../modules/actresses/schema';
export * from '../modules/movies/schema';
export * from '../modules/operators/schema';
export * from '../modules/system/schema';
