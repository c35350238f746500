/** Region codes an actress may carry (the API accepts these; the SPA names them in the UI's language). */
export const REGIONS = ['cn', 'hk', 'tw', 'jp', 'kr', 'sea', 'us', 'eu', 'other'] as const;
export type Region = (typeof REGIONS)[number];

/**
 * The longest biography an actress may have, in characters (UTF-16 units, as the API and the form count them): what
 * they accept, and the most the MacCMS move writes (a longer mac_actor text is cut to it, and the report says so), so
 * every stored biography can be saved again. MacCMS keeps actor_content in a TEXT (64 KB).
 */
export const MAX_ACTRESS_BIOGRAPHY = 20_000;

/**
 * A region as MacCMS writes `actor_area` (its sites write the place in Chinese), for the provide API and for reading
 * a collected performer back: the names below, or our code itself.
 */
export const REGION_AREAS: Record<Region, string> = {
  cn: '大陆',
  hk: '香港',
  tw: '台湾',
  jp: '日本',
  kr: '韩国',
  sea: '东南亚',
  us: '美国',
  eu: '欧洲',
  other: '其他',
};

const AREA_REGIONS = new Map<string, Region>([
  ...Object.entries(REGION_AREAS).map(([code, name]) => [name, code as Region] as const),
  ...REGIONS.map((r) => [r, r] as const),
  ['中国', 'cn'],
  ['内地', 'cn'],
  ['中国大陆', 'cn'],
  ['臺灣', 'tw'],
  ['台灣', 'tw'],
  ['韓國', 'kr'],
]);

/** `actor_area` as our region, or null when it names none we know. */
export const regionOfArea = (area: string): Region | null =>
  AREA_REGIONS.get(area.trim().toLowerCase()) ?? null;
