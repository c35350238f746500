/** Region codes an actress may carry (the API accepts these; the SPA names them in the UI's language). */
export const REGIONS = ['cn', 'hk', 'tw', 'jp', 'kr', 'sea', 'us', 'eu', 'other'] as const;
export type Region = (typeof REGIONS)[number];

/**
 * The longest biography an actress may have, in characters (UTF-16 units, as the API and the form count them): what
 * they accept, and the most the MacCMS move writes (a longer mac_actor text is cut to it, and the report says so), so
 * every stored biography can be saved again. MacCMS keeps actor_content in a TEXT (64 KB).
 */
export const MAX_ACTRESS_BIOGRAPHY = 20_000;
