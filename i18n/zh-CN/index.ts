import type { TranslationMessages } from 'ra-core';
import http from './http';
import images from './images';
import login from './login';
import ra from './ra';
import report from './report';
import resources from './resources';
import shell from './shell';

/**
 * The whole zh-CN bundle in react-admin's shape. Each file holds one namespace: `ra` (react-admin's own),
 * `http` (the HTTP client), `shell`, `login`, `resources` (the shell's; ra-core reads
 * `resources.<resource>.name|fields` itself) `images` (the image components) and `report` (the report components). The login page imports only
 * login.ts, never this file.
 */
const messages: TranslationMessages = {
  ra,
  http,
  shell,
  login,
  resources,
  images,
  report,
} as TranslationMessages;
export default messages;
