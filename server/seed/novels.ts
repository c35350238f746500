import { count } from 'drizzle-orm';
import type { SerialStatus } from '../../common/novel';
import { countWords } from '../../common/words';
import type { Db } from '../db/types';
import { appendChapters } from '../modules/novel/chapters';
import { type NovelStatus, novelColumns, novels } from '../modules/novel/schema';
import { rng } from './random';

/** Novel columns: top level → children. */
const COLUMNS: [string, string[]][] = [
  ['玄幻', ['东方玄幻', '异世大陆']],
  ['仙侠', ['古典仙侠', '修真文明']],
  ['都市', ['都市生活', '职场商战']],
  ['历史', []],
  ['科幻', []],
  ['言情', []],
];

/** Title, author, column, tags, serial status, review status, chapter count, free chapters. */
const NOVELS: [string, string, string, string[], SerialStatus, NovelStatus, number, number][] = [
  ['剑起青云', '墨染青衫', '古典仙侠', ['热血', '升级'], 'ongoing', 'online', 24, 10],
  ['长安夜雨', '南山有雪', '历史', ['权谋', '古风'], 'completed', 'online', 18, 8],
  ['星河彼岸', '林深见鹿', '科幻', ['星际', '硬科幻'], 'ongoing', 'online', 12, 5],
  ['都市之巅', '江上清风', '都市生活', ['逆袭'], 'ongoing', 'pending', 9, 3],
  ['大荒行', '北冥有鱼', '东方玄幻', ['热血', '冒险'], 'ongoing', 'pending', 15, 6],
  ['掌中山河', '白衣卿相', '异世大陆', ['争霸'], 'ongoing', 'rejected', 6, 3],
  ['修真纪元', '青灯古卷', '修真文明', ['修真', '系统'], 'completed', 'offline', 20, 10],
  ['她的城', '半夏微凉', '言情', ['甜宠'], 'completed', 'online', 14, 6],
  ['商海沉浮', '陈年旧事', '职场商战', ['职场'], 'ongoing', 'pending', 7, 3],
  ['The Quiet Orbit', 'Mara Quinn', '科幻', ['space', 'mystery'], 'ongoing', 'pending', 8, 3],
  ['The Tea Road', 'Henry Lau', '历史', ['travel'], 'completed', 'online', 10, 4],
  ['新书待审', '无名氏', '都市生活', [], 'ongoing', 'pending', 0, 0],
];

const ZH_PLACES = ['山门', '长街', '渡口', '古寺', '城楼', '竹林', '雪原', '江畔', '书院', '集市'];
const ZH_PEOPLE = ['少年', '老者', '掌柜', '书生', '剑客', '姑娘', '师父', '船夫'];
const ZH_ACTS = [
  '推开了那扇旧木门',
  '望着远处的灯火出神',
  '把信折好藏进袖中',
  '听见风里传来钟声',
  '握紧了手中的剑',
  '低声说了一句话',
  '在雨里站了很久',
  '笑着摇了摇头',
];
const ZH_TITLES = ['初入', '夜探', '重逢', '风起', '惊变', '抉择', '归来', '离别', '试炼', '破局'];
const EN_SENTENCES = [
  'The wind carried the smell of rain across the harbour.',
  'She folded the letter twice and put it in her coat.',
  'Nobody on the ship remembered the last time the stars had moved.',
  'He waited by the door until the lamps went out.',
  'The road east was longer than any map had promised.',
];

function zhParagraph(r: ReturnType<typeof rng>) {
  const sentences = Array.from(
    { length: r.int(3, 6) },
    () => `${r.pick(ZH_PEOPLE)}在${r.pick(ZH_PLACES)}${r.pick(ZH_ACTS)}`,
  );
  return `　　${sentences.join('，')}。`;
}

function chapterText(r: ReturnType<typeof rng>, english: boolean) {
  return Array.from({ length: r.int(6, 14) }, () =>
    english ? Array.from({ length: r.int(2, 4) }, () => r.pick(EN_SENTENCES)).join(' ') : zhParagraph(r),
  ).join('\n\n');
}

/**
 * Demo novels: a column tree, a dozen novels in every review and serial status, with generated chapters (the
 * online ones always have some). Deterministic by `seed`; does nothing when novels exist.
 */
export async function seedNovels(
  db: Db,
  options: { seed?: number; now?: Date; reviewer?: number | null } = {},
) {
  const [{ n }] = await db.select({ n: count() }).from(novels);
  if (Number(n) > 0) return { seeded: 0 };
  const r = rng((options.seed ?? 42) + 404);
  const now = options.now ?? new Date('2026-06-01T00:00:00Z');
  return db.transaction(async (tx) => {
    const columnIds = new Map<string, number>();
    for (const [i, [name, kids]] of COLUMNS.entries()) {
      const [top] = await tx
        .insert(novelColumns)
        .values({ name, sort: i })
        .returning({ id: novelColumns.id });
      columnIds.set(name, top.id);
      for (const [j, kid] of kids.entries()) {
        const [c] = await tx
          .insert(novelColumns)
          .values({ name: kid, parentId: top.id, sort: j })
          .returning({ id: novelColumns.id });
        columnIds.set(kid, c.id);
      }
    }
    for (const [
      i,
      [title, author, column, tags, serialStatus, status, chapters, freeChapters],
    ] of NOVELS.entries()) {
      const createdAt = new Date(now.getTime() - (NOVELS.length - i) * 86_400_000 * 3);
      const reviewed = status !== 'pending' ? new Date(createdAt.getTime() + 3_600_000) : null;
      const [row] = await tx
        .insert(novels)
        .values({
          title,
          author,
          columnId: columnIds.get(column) ?? null,
          tags,
          description: `${title}：${author}的作品。`,
          serialStatus,
          status,
          rejectReason: status === 'rejected' ? '简介与正文不符，请修改后重新提交' : '',
          reviewedBy: reviewed ? (options.reviewer ?? null) : null,
          reviewedAt: reviewed,
          publishedAt: status === 'online' || status === 'offline' ? reviewed : null,
          freeChapters,
          views: status === 'online' ? r.int(100, 50_000) : 0,
          createdAt,
          updatedAt: reviewed ?? createdAt,
        })
        .returning({ id: novels.id });
      const english = /^[A-Z]/.test(title);
      const list = Array.from({ length: chapters }, (_, k) => {
        const content = chapterText(r, english);
        return {
          title: english ? `Chapter ${k + 1}` : `第${k + 1}章 ${r.pick(ZH_TITLES)}`,
          content,
          words: countWords(content),
        };
      });
      await appendChapters(tx, row.id, list, createdAt);
    }
    return { seeded: NOVELS.length };
  });
}
