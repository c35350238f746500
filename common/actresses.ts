/** Region codes an actress may carry (the API accepts these; the SPA names them in the UI's language). */
export const REGIONS = ['cn', 'hk', 'tw', 'jp', 'kr', 'sea', 'us', 'eu', 'other'] as const;
export type Region = (typeof REGIONS)[number];
