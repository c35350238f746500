import TuneIcon from '@mui/icons-material/Tune';
import {
  Box,
  Button,
  Divider,
  Drawer,
  Fab,
  FormControlLabel,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { layoutFlags } from '../settings/layout';
import { type AppSettings, DRAWER_WIDTH, getSettings, updateSettings, useSettings } from '../settings/store';

type Flag = { [K in keyof AppSettings]: AppSettings[K] extends boolean ? K : never }[keyof AppSettings];
const structure: Flag[] = ['navbar', 'menu', 'topMenu', 'tabBar', 'menuFromServer', 'menuCollapse', 'footer'];

/** The menu width (80px wide): typed freely, saved once it is a sensible width (120–600). */
function MenuWidthInput({ value }: { value: number }) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  return (
    <TextField
      id="settings-menu-width"
      type="number"
      variant="outlined"
      size="small"
      sx={{ width: 80 }}
      value={text}
      slotProps={{ htmlInput: { min: 120, max: 600, step: 10 } }}
      onChange={(e) => {
        setText(e.target.value);
        const n = Number(e.target.value);
        if (e.target.value !== '' && Number.isFinite(n) && n >= 120 && n <= 600)
          updateSettings({ menuWidth: n });
      }}
      onBlur={() => setText(String(value))}
    />
  );
}

/** The settings drawer (300 wide): every application setting of SPEC.md §3, persisted, copyable. */
export function SettingsDrawer() {
  const settings = useSettings();
  const translate = useTranslate();
  const notify = useNotify();
  const close = () => updateSettings({ globalSettings: false });
  const flag = (key: Flag) => (
    <FormControlLabel
      key={key}
      sx={{ justifyContent: 'space-between', ml: 0 }}
      labelPlacement="start"
      label={translate(`shell.settings.${key}`)}
      control={
        <Switch checked={settings[key]} onChange={(e) => updateSettings({ [key]: e.target.checked })} />
      }
    />
  );
  const copy = async () => {
    await navigator.clipboard
      ?.writeText(JSON.stringify({ ...getSettings(), globalSettings: false }, null, 2))
      .catch(() => {});
    notify('shell.settings.copied', { type: 'success' });
  };
  return (
    <>
      {layoutFlags(settings).floatingSettings && (
        <Fab
          color="primary"
          size="medium"
          onClick={() => updateSettings({ globalSettings: true })}
          aria-label={translate('shell.settings.open')}
          sx={{ position: 'fixed', right: 24, bottom: 24, zIndex: 1300 }}
        >
          <TuneIcon />
        </Fab>
      )}
      <Drawer
        anchor="right"
        open={settings.globalSettings}
        onClose={close}
        // the paper is the dialog: it carries the name (axe aria-dialog-name)
        slotProps={{
          paper: {
            sx: { width: DRAWER_WIDTH },
            role: 'dialog',
            'aria-labelledby': 'settings-title',
          } as object,
        }}
      >
        <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1, height: '100%' }}>
          <Typography id="settings-title" variant="h6" component="h2">
            {translate('shell.settings.title')}
          </Typography>
          <Typography variant="overline" component="h3">
            {translate('shell.settings.appearance')}
          </Typography>
          <FormControlLabel
            sx={{ justifyContent: 'space-between', ml: 0 }}
            labelPlacement="start"
            label={translate('shell.settings.theme')}
            control={
              <Switch
                checked={settings.theme === 'dark'}
                onChange={(e) => updateSettings({ theme: e.target.checked ? 'dark' : 'light' })}
              />
            }
          />
          {flag('colorWeak')}
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
            <label htmlFor="settings-theme-color">{translate('shell.settings.themeColor')}</label>
            <input
              id="settings-theme-color"
              type="color"
              value={settings.themeColor}
              onChange={(e) => updateSettings({ themeColor: e.target.value })}
            />
          </Stack>
          <Divider />
          <Typography variant="overline" component="h3">
            {translate('shell.settings.structure')}
          </Typography>
          {structure.map(flag)}
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
            <label htmlFor="settings-menu-width">{translate('shell.settings.menuWidth')}</label>
            <MenuWidthInput value={settings.menuWidth} />
          </Stack>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
            <label htmlFor="settings-device">{translate('shell.settings.device')}</label>
            <TextField
              id="settings-device"
              select
              size="small"
              sx={{ width: 120 }}
              value={settings.device}
              slotProps={{ select: { native: true } }}
              onChange={(e) => updateSettings({ device: e.target.value === 'mobile' ? 'mobile' : 'desktop' })}
            >
              <option value="desktop">{translate('shell.settings.desktop')}</option>
              <option value="mobile">{translate('shell.settings.mobile')}</option>
            </TextField>
          </Stack>
          <Box sx={{ flex: 1 }} />
          <Stack direction="row" spacing={1}>
            <Button variant="contained" onClick={copy} fullWidth>
              {translate('shell.settings.copy')}
            </Button>
            <Button variant="outlined" onClick={close} fullWidth>
              {translate('shell.settings.cancel')}
            </Button>
          </Stack>
        </Box>
      </Drawer>
    </>
  );
}
