import { foldForMatch } from '../../../common/fold';
import { USER_GROUPS, type UserGroup, type UserStatus } from '../../../common/users';
import type { Db } from '../../db/types';
import { rng } from '../../seed/random';
import { siteUsers } from './schema';

const NAMES = ['star', 'moon', 'tiger', 'panda', 'cloud', 'river', 'maple', 'lotus', 'jade', 'pine'];
const NICKS = [
  '追剧达人',
  '夜猫子',
  '小说迷',
  '影迷老张',
  '路人甲',
  '书虫',
  '咸鱼',
  '快乐星球',
  '阿飞',
  '小鹿',
];
// Some members came through the sample agents' links (their codes in server/modules/agents/seed.ts).
const CHANNELS = ['', '', '', 'agent01', 'agent02', 'kol-li'];

/** Sample members (deterministic by `seed`): some VIPs (a few expired), some disabled, some from agents' links. */
export async function seedUsers(db: Db, at: { seed: number; tenant: number; now: Date; n?: number }) {
  const r = rng(at.seed ^ 0x05e75);
  const day = 86_400_000;
  const rows = Array.from({ length: at.n ?? 300 }, (_, i) => {
    const signupAt = new Date(at.now.getTime() - r.int(1, 400) * day - r.int(0, 86_399) * 1000);
    const vip = r.next() < 0.2;
    const group: UserGroup = vip ? r.pick(['vip', 'svip'] as const) : r.next() < 0.03 ? 'staff' : 'normal';
    const status: UserStatus = r.next() < 0.05 ? 'disabled' : 'active';
    const address = `${r.int(1, 223)}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`;
    return {
      tenant: at.tenant,
      account: `${r.pick(NAMES)}${String(i + 1).padStart(4, '0')}`,
      nickname: r.pick(NICKS),
      phone: r.next() < 0.7 ? `1${r.int(30, 99)}${String(r.int(0, 99_999_999)).padStart(8, '0')}` : '',
      email: r.next() < 0.4 ? `user${i + 1}@example.com` : '',
      group: USER_GROUPS.includes(group) ? group : 'normal',
      vipLevel: vip ? r.int(1, 3) : 0,
      vipExpiresAt: vip ? new Date(at.now.getTime() + r.int(-60, 300) * day) : null,
      points: r.int(0, 5000),
      status,
      signupAt,
      signupAddress: address,
      lastLoginAt: r.next() < 0.9 ? new Date(signupAt.getTime() + r.int(0, 30) * day) : null,
      lastLoginAddress: address,
      channel: r.pick(CHANNELS),
      inviter: i > 10 && r.next() < 0.1 ? r.int(1, i) : null,
      createdAt: signupAt,
      updatedAt: signupAt,
    };
  });
  await db.insert(siteUsers).values(rows.map((u) => ({ ...u, accountKey: foldForMatch(u.account) })));
}
