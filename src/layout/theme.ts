import { lighten } from '@mui/material/styles';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { AUTOCOMPLETE_KEYS } from '../components/autocompleteTexts';
import { COLLAPSED_MENU_WIDTH, NAVBAR_HEIGHT } from '../settings/store';

/**
 * The admin's MUI theme from the application settings. Colours are chosen for WCAG AA contrast (axe-core runs on
 * every screen in the e2e suite): react-admin's default theme fails it.
 */
export function makeTheme(mode: 'light' | 'dark', themeColor: string, menuWidth: number): RaThemeOptions {
  const base = mode === 'dark' ? defaultDarkTheme : defaultLightTheme;
  const dark = mode === 'dark';
  return {
    ...base,
    sidebar: { width: menuWidth, closedWidth: COLLAPSED_MENU_WIDTH },
    palette: {
      mode,
      primary: { main: dark ? lighten(themeColor, 0.45) : themeColor },
      secondary: { main: dark ? '#c9cdd4' : '#1d2129' },
      error: { main: dark ? '#ff8f8f' : '#b42318' }, // ≥ 4.5:1 on white and on the toolbar's grey
      success: { main: dark ? '#6ee7a0' : '#0b6b35' },
      warning: { main: dark ? '#ffc46b' : '#8a4d00' },
      info: { main: dark ? '#7cc8f8' : '#0277bd' }, // MUI's #0288d1 under white text is 3.85:1 (a scheduled chip)
      background: { default: dark ? '#17171a' : '#f2f3f5', paper: dark ? '#232324' : '#ffffff' },
      text: dark
        ? { primary: '#f2f3f5', secondary: '#c9cdd4', disabled: '#a9aeb8' }
        : { primary: '#1d2129', secondary: '#4e5969', disabled: '#5c6370' },
    },
    typography: {
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif",
    },
    components: {
      ...base.components,
      // operators read sentences, not shouted labels ('ENGLISH', 'COPY SETTINGS')
      MuiButton: {
        ...base.components?.MuiButton,
        styleOverrides: {
          ...(base.components?.MuiButton?.styleOverrides as object),
          root: { textTransform: 'none' },
        },
      },
      MuiAppBar: { styleOverrides: { root: { minHeight: NAVBAR_HEIGHT, justifyContent: 'center' } } },
      // a list's main column may shrink below its table's width (the table scrolls in its own wrapper)
      RaList: { styleOverrides: { root: { '& .RaList-main': { minWidth: 0 } } } },
      // react-admin translates these keys; its own defaults say "打开" / "Open" and, for no options, MUI's English
      RaAutocompleteInput: { defaultProps: AUTOCOMPLETE_KEYS },
      RaToolbar: { styleOverrides: { root: { backgroundColor: dark ? '#2e2e30' : '#f2f3f5' } } },
      MuiFilledInput: {
        styleOverrides: { root: { backgroundColor: dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.04)' } },
      },
    },
  };
}
