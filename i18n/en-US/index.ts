import type { TranslationMessages } from 'ra-core';
import http from './http';
import login from './login';
import ra from './ra';
import resources from './resources';
import shell from './shell';

/**
 * The whole en-US bundle in react-admin's shape. Each file holds one namespace: `ra` (react-admin's own),
 * `http` (the HTTP client), `shell`, `login` and `resources` (the shell's; ra-core reads
 * `resources.<resource>.name|fields` itself). The login page imports only login.ts, never this file.
 */
const messages: TranslationMessages = { ra, http, shell, login, resources } as TranslationMessages;
export default messages;
