/** The settings every tenant starts with (SPEC.md §3): platform keys 2, 1, 4, 5, 6 with their Chinese labels. */
export const DEFAULT_SETTINGS = {
  imgdomain: '',
  platforms: [
    { key: 2, name: '樱桃' },
    { key: 1, name: '1号站' },
    { key: 4, name: '樱花' },
    { key: 5, name: '桃花' },
    { key: 6, name: '梅花' },
  ],
};
