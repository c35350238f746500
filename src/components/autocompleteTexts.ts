import { useTranslate } from 'react-admin';

/**
 * The words of MUI's Autocomplete (its pop-up and clear buttons, its loading and empty states), which MUI only has
 * in English ("Open"): react-admin's inputs take the keys from the theme (src/layout/theme.ts), a plain
 * Autocomplete spreads these.
 */
export const AUTOCOMPLETE_KEYS = {
  openText: 'shell.autocomplete.open',
  closeText: 'shell.autocomplete.close',
  clearText: 'shell.autocomplete.clear',
  loadingText: 'shell.autocomplete.loading',
  noOptionsText: 'shell.autocomplete.noOptions',
} as const;

/** AUTOCOMPLETE_KEYS in the interface's language, for a plain MUI Autocomplete. */
export function useAutocompleteTexts() {
  const translate = useTranslate();
  return Object.fromEntries(
    Object.entries(AUTOCOMPLETE_KEYS).map(([prop, key]) => [prop, translate(key)]),
  ) as Record<keyof typeof AUTOCOMPLETE_KEYS, string>;
}
