import { asc, eq } from 'drizzle-orm';
import type { CommentTarget } from '../../../common/comment';
import type { ReviewStatus } from '../../../common/review';
import type { Db } from '../../db/types';
import { rng } from '../../seed/random';
import { actresses } from '../actresses/schema';
import { movies } from '../movie/schema';
import { novels } from '../novel/schema';
import { siteUsers } from '../users/schema';
import { writeFilter } from './filter';
import { comments, guestbook } from './schema';

const LINES = [
  '画质很清楚，支持一下',
  '剧情有点拖沓，后半段好看',
  '求更新下一集！',
  '演员演技在线',
  '字幕有几处错误',
  '这部我看了三遍了',
  '加载有点慢，其他都好',
  '配乐太好听了',
  '结局没看懂，有人解释一下吗',
  '收藏了，周末慢慢看',
  '加微信领福利 vx123',
  '垃圾广告别点',
];
const REPLIES = ['同意楼上', '我也觉得', '哈哈哈哈', '+1', '不太认同'];
const MESSAGES = [
  '网站很好用，希望多更新',
  '能不能加个夜间模式',
  '充值后会员没生效',
  '求片：上周那部新片',
  '客服在吗',
];

/** Sample comments (some pending, reported, replies) and guestbook entries (some replied, some broken-video reports). */
export async function seedComments(db: Db, at: { seed: number; tenant: number; now: Date }) {
  const r = rng(at.seed ^ 0xc0e7);
  const users = await db
    .select({ id: siteUsers.id, address: siteUsers.lastLoginAddress })
    .from(siteUsers)
    .where(eq(siteUsers.tenant, at.tenant))
    .orderBy(asc(siteUsers.id))
    .limit(200);
  const targets: Record<CommentTarget, number[]> = {
    movie: (await db.select({ id: movies.id }).from(movies).limit(50)).map((m) => m.id),
    novel: (await db.select({ id: novels.id }).from(novels).limit(20)).map((m) => m.id),
    chapter: [],
    actress: (await db.select({ id: actresses.id }).from(actresses).limit(20)).map((m) => m.id),
  };
  const types = (Object.keys(targets) as CommentTarget[]).filter((t) => targets[t].length);
  if (!users.length || !types.length) return;
  const minute = 60_000;
  const status = (): ReviewStatus => {
    const x = r.next();
    return x < 0.65 ? 'online' : x < 0.85 ? 'pending' : x < 0.93 ? 'offline' : 'rejected';
  };
  const top = Array.from({ length: 240 }, () => {
    const u = r.pick(users);
    const type = r.pick(types);
    const t = new Date(at.now.getTime() - r.int(1, 60 * 24 * 60) * minute);
    return {
      tenant: at.tenant,
      targetType: type,
      targetId: r.pick(targets[type]),
      userId: u.id,
      content: r.pick(LINES),
      address: u.address,
      likes: r.int(0, 200),
      reports: r.next() < 0.1 ? r.int(1, 8) : 0,
      status: status(),
      createdAt: t,
      updatedAt: t,
    };
  });
  const parents = await db.insert(comments).values(top).returning({
    id: comments.id,
    targetType: comments.targetType,
    targetId: comments.targetId,
    createdAt: comments.createdAt,
  });
  const replies = Array.from({ length: 80 }, () => {
    const p = r.pick(parents);
    const u = r.pick(users);
    const t = new Date(new Date(p.createdAt).getTime() + r.int(1, 600) * minute);
    return {
      tenant: at.tenant,
      targetType: p.targetType,
      targetId: p.targetId,
      parentId: p.id,
      userId: u.id,
      content: r.pick(REPLIES),
      address: u.address,
      likes: r.int(0, 20),
      status: status(),
      createdAt: t,
      updatedAt: t,
    };
  });
  await db.insert(comments).values(replies);
  const entries = Array.from({ length: 120 }, (_, i) => {
    const guest = r.next() < 0.3;
    const u = r.pick(users);
    const broken = r.next() < 0.2;
    const t = new Date(at.now.getTime() - r.int(1, 30 * 24 * 60) * minute);
    const replied = r.next() < 0.4;
    return {
      tenant: at.tenant,
      userId: guest ? null : u.id,
      guestName: guest ? `游客${i + 1}` : '',
      contact: guest ? `guest${i + 1}@example.com` : '',
      kind: broken ? ('broken' as const) : ('message' as const),
      movieId: broken && targets.movie.length ? r.pick(targets.movie) : null,
      content: broken ? '视频播放不了，一直转圈' : r.pick(MESSAGES),
      address: u.address,
      status: status(),
      reply: replied ? '感谢反馈，我们会尽快处理' : '',
      repliedAt: replied ? new Date(t.getTime() + 60 * minute) : null,
      createdAt: t,
      updatedAt: t,
    };
  });
  await db.insert(guestbook).values(entries);
  const rules = {
    enabled: true,
    reviewFirst: false,
    loginRequired: true,
    userInterval: 10,
    addressInterval: 5,
    maskWords: ['垃圾', '傻瓜'],
    blockWords: ['加微信', '代开发票'],
    holdWords: ['退款'],
    blacklist: ['192.0.2.0/24'],
  };
  await writeFilter(db, at.tenant, 'comment', rules, at.now);
  await writeFilter(db, at.tenant, 'guestbook', { ...rules, loginRequired: false }, at.now);
}
