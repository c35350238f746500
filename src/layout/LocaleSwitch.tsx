import TranslateIcon from '@mui/icons-material/Translate';
import { Button, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { AVAILABLE_LOCALES } from '../i18n';

/** Set when the operator picks a language; ClientBridge confirms the change once the admin shows it. */
export const LOCALE_CHANGED_FLAG = 'locale-changed';

/** 中文 / English: saved (the i18nProvider persists it) and confirmed with a message. */
export function LocaleSwitch() {
  const [locale, setLocale] = useLocaleState();
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = AVAILABLE_LOCALES.find((l) => l.locale === locale)?.name ?? locale;
  return (
    <>
      <Button
        color="inherit"
        startIcon={<TranslateIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-label={`${translate('shell.navbar.language')}: ${current}`}
        aria-haspopup="menu"
      >
        {current}
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {AVAILABLE_LOCALES.map((l) => (
          <MenuItem
            key={l.locale}
            selected={l.locale === locale}
            lang={l.locale}
            onClick={async () => {
              setAnchor(null);
              if (l.locale === locale) return;
              // react-admin re-renders the whole admin in the new locale: ClientBridge says so once it has.
              sessionStorage.setItem(LOCALE_CHANGED_FLAG, l.locale);
              setLocale(l.locale);
            }}
          >
            {l.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
