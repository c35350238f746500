import KeyIcon from '@mui/icons-material/Key';
import LogoutIcon from '@mui/icons-material/Logout';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { Divider, IconButton, ListItemIcon, Menu, MenuItem, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLogout, useNotify, useTranslate } from 'react-admin';
import { canViewAsUser, DEFAULT_AVATAR, switchRole, useUser } from '../api/session';
import { AvatarImage } from '../images/AvatarImage';
import { ChangePasswordDialog } from './ChangePasswordDialog';

/** The avatar menu: who I am, change my password, switch roles (admins only: view as user), log out. */
export function UserMenu() {
  const user = useUser();
  const translate = useTranslate();
  const notify = useNotify();
  const logout = useLogout();
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const close = () => setAnchor(null);
  const viewingAsUser = !!user && user.role !== user.realRole;
  const nextRole = viewingAsUser ? 'admin' : 'user';
  return (
    <>
      <IconButton
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-label={translate('shell.navbar.userMenu')}
        aria-haspopup="menu"
        color="inherit"
      >
        <AvatarImage
          src={user?.avatar === DEFAULT_AVATAR ? null : user?.avatar}
          alt=""
          size={32}
          fallbackSrc={DEFAULT_AVATAR}
        />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={close}>
        {/* who I am: an inert menu item (a menu may only hold items), shown at full contrast */}
        <MenuItem disabled sx={{ display: 'block', '&.Mui-disabled': { opacity: 1 } }}>
          <Typography variant="subtitle2" component="span" sx={{ display: 'block' }}>
            {user?.nickname || user?.account}
          </Typography>
          <Typography variant="caption" component="span" color="text.secondary">
            {user?.account} · {user?.role ? translate(`shell.user.roles.${user.role}`, { _: user.role }) : ''}
          </Typography>
        </MenuItem>
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            setPasswordOpen(true);
          }}
        >
          <ListItemIcon>
            <KeyIcon fontSize="small" />
          </ListItemIcon>
          {translate('shell.user.changePassword')}
        </MenuItem>
        {canViewAsUser(user) && (
          <MenuItem
            onClick={() => {
              close();
              switchRole(nextRole);
              queryClient.invalidateQueries({ queryKey: ['auth', 'getPermissions'] });
              notify('shell.user.roleSwitched', {
                type: 'info',
                messageArgs: {
                  role: translate(`shell.user.roles.${nextRole}`, {
                    _: viewingAsUser ? user.realRole : nextRole,
                  }),
                },
              });
            }}
          >
            <ListItemIcon>
              <SwapHorizIcon fontSize="small" />
            </ListItemIcon>
            {translate(viewingAsUser ? 'shell.user.backToAdmin' : 'shell.user.viewAsUser')}
          </MenuItem>
        )}
        <MenuItem
          onClick={() => {
            close();
            notify('shell.user.logoutSuccess', { type: 'success' });
            logout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {translate('shell.user.logout')}
        </MenuItem>
      </Menu>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </>
  );
}
