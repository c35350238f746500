import { z } from '@hono/zod-openapi';
import { imageField } from '../images/paths';
import { operators } from './schema';

/** A role's name (roles.name): the built-ins `admin` and `user`, or a role made at /setting/roles. */
export const roleName = z.string().trim().min(1).max(32);

/** A new password: at least 8 characters with letters and digits. */
export const newPassword = z
  .string()
  .max(128)
  .refine((p) => p.length >= 8 && /[A-Za-z]/.test(p) && /\d/.test(p), { params: { key: 'password.weak' } });

export const account = z
  .string()
  .min(3)
  .max(32)
  .regex(/^[A-Za-z0-9_.-]+$/);

export const nickname = z.string().trim().max(64);
export const avatar = imageField(1024);

/** What the API shows of an operator: never the password hash. */
export const operatorColumns = {
  id: operators.id,
  account: operators.account,
  nickname: operators.nickname,
  avatar: operators.avatar,
  role: operators.role,
  disabled: operators.disabled,
  createdAt: operators.createdAt,
  updatedAt: operators.updatedAt,
  lastLoginAt: operators.lastLoginAt,
  version: operators.version,
};

export const Operator = z
  .object({
    id: z.number(),
    account: z.string(),
    nickname: z.string(),
    avatar: z.string(),
    role: z.string(),
    disabled: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    lastLoginAt: z.string().nullable(),
    version: z.number(),
  })
  .openapi('Operator');

/** The user info of SPEC.md §3. */
export const UserInfo = z
  .object({
    uid: z.number(),
    avatar: z.string(),
    nickname: z.string(),
    account: z.string(),
    role: z.string(),
    /** What the operator's role allows (`<section>.<action>`): the SPA's menu, guards and read-only screens. */
    permissions: z.array(z.string()),
  })
  .openapi('UserInfo');
