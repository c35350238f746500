/**
 * The per-tenant system settings (SPEC.md §3, §7): imgdomain, the content platforms and whatever else the
 * server saved, plus the derived platform map (key → name).
 */
import { toast } from './events';
import { ApiFailure, request, TOAST_DURATION } from './http';
import { httpMessage } from './messages';
import { createStore } from './store';

export const DEFAULT_TENANT = 2;

export interface Platform {
  name: string;
  key: string | number;
}

export interface SystemSettings {
  imgdomain: string;
  platforms: Platform[];
  /** Platform key → platform name. */
  platformMap: Record<string, string>;
  version?: number;
  [field: string]: unknown;
}

type SettingsAnswer = { imgdomain?: string; platforms?: Platform[] } & Record<string, unknown>;

const settingsStore = createStore<SystemSettings | null>(null);
const setSettings = settingsStore.set;

function fromAnswer(data: SettingsAnswer): SystemSettings {
  const platforms = Array.isArray(data.platforms) ? data.platforms : [];
  const platformMap: Record<string, string> = {};
  for (const p of platforms) platformMap[String(p.key)] = p.name;
  return { ...data, imgdomain: data.imgdomain ?? '', platforms, platformMap };
}

export function getSystemSettings(): SystemSettings | null {
  return settingsStore.get();
}

export function useSystemSettings(): SystemSettings | null {
  return settingsStore.use();
}

/**
 * GET admin/sys/getSetting?tenant=… into the store. A failure is toasted once, with its message or
 * '系统配置请求失败', and resolves null (the store keeps what it had).
 */
export async function loadSystemSettings(tenant: number = DEFAULT_TENANT): Promise<SystemSettings | null> {
  try {
    const data = await request<SettingsAnswer>('admin/sys/getSetting', { query: { tenant }, quiet: true });
    const next = fromAnswer(data ?? {});
    setSettings(next);
    return next;
  } catch (err) {
    const own = err instanceof ApiFailure ? err.msg : err instanceof Error ? err.message : '';
    const message = own || httpMessage('systemConfigFailed');
    toast({ type: 'error', message, duration: TOAST_DURATION });
    return null;
  }
}

/**
 * POST admin/sys/updateSetting (admin only), then refresh the store. The derived `platformMap` is never sent.
 * Failures are toasted and rethrown.
 */
export async function saveSystemSettings<T = unknown>(
  patch: { tenant?: number; version?: number } & Record<string, unknown>,
): Promise<T> {
  const { platformMap: _derived, ...fields } = patch;
  const saved = await request<T>('admin/sys/updateSetting', { method: 'POST', json: fields });
  await loadSystemSettings(patch.tenant ?? DEFAULT_TENANT);
  return saved;
}
