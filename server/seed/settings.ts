import type { Db } from '../db/types';
import { noticeBoundaries } from '../modules/notices/model';
import { notices } from '../modules/notices/schema';
import { promotionApps } from '../modules/promotion-apps/schema';
import { bumpSiteVersion, setSiteBoundaries } from '../modules/site/state';
import { statisticsSettings } from '../modules/statistics-settings/schema';
import { DEFAULT_SETTINGS } from '../modules/sys/defaults';
import { systemSettings } from '../modules/sys/schema';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The settings section's sample data, for demo mode and trials: the base settings of the default tenant,
 * notices in every state relative to `now` (live marquee and pop-up, one scheduled, one expired, one disabled),
 * a few promotion apps and the statistics settings. No site key: an admin makes one on the base settings screen.
 */
export async function seedSettings(db: Db, options: { tenant: number; now: Date }) {
  const { tenant, now } = options;
  const t = now.getTime();
  await db
    .insert(systemSettings)
    .values({
      tenant,
      data: {
        ...DEFAULT_SETTINGS,
        siteName: '樱桃视频',
        contactEmail: 'service@example.com',
        contactTelegram: '@cherry_service',
        contactQQ: '800800800',
        registrationOpen: true,
        commentsOpen: true,
      },
      version: 1,
      updatedAt: now,
    })
    .onConflictDoNothing();
  await db.insert(notices).values([
    {
      tenant,
      type: 'marquee',
      title: '维护通知',
      content: '本站将于每周二凌晨 2:00–4:00 例行维护，期间部分视频可能无法播放。',
      platforms: [2, 1, 4, 5, 6],
      startAt: new Date(t - 3 * DAY),
      endAt: null,
      sort: 1,
    },
    {
      tenant,
      type: 'popup',
      title: '新域名上线',
      content:
        '<p>我们启用了新的访问域名，请<strong>收藏</strong>备用地址：</p><ul><li><a href="https://cherry.example" rel="noopener noreferrer nofollow" target="_blank">cherry.example</a></li><li>客服 QQ：800800800</li></ul>',
      platforms: [2, 4],
      startAt: new Date(t - DAY),
      endAt: new Date(t + 7 * DAY),
      sort: 1,
    },
    {
      tenant,
      type: 'popup',
      title: '周末会员活动',
      content: '<p>本周末开通会员<em>立享八折</em>，活动时间以页面为准。</p>',
      platforms: [2],
      startAt: new Date(t + 2 * DAY),
      endAt: new Date(t + 4 * DAY),
      sort: 2,
    },
    {
      tenant,
      type: 'marquee',
      title: '春节放假安排',
      content: '春节期间客服回复可能延迟，敬请谅解。',
      platforms: [1, 5],
      startAt: new Date(t - 40 * DAY),
      endAt: new Date(t - 30 * DAY),
      sort: 3,
    },
    {
      tenant,
      type: 'popup',
      title: '旧版 App 停用提醒',
      content: '<p>旧版 App 将停止更新，请下载新版。</p>',
      platforms: [6],
      startAt: new Date(t - 10 * DAY),
      endAt: null,
      enabled: false,
      sort: 4,
    },
  ]);
  await db.insert(promotionApps).values([
    {
      tenant,
      name: '樱桃浏览器',
      url: 'https://browser.example/android.apk',
      os: 'android',
      platforms: [2, 1, 4],
      sort: 1,
    },
    {
      tenant,
      name: '樱桃浏览器 iOS',
      url: 'https://apps.example/cherry-ios',
      os: 'ios',
      platforms: [2, 1, 4],
      sort: 2,
    },
    {
      tenant,
      name: '樱桃桌面版',
      url: 'https://browser.example/desktop',
      os: 'desktop',
      platforms: [2, 5, 6],
      sort: 3,
    },
    {
      tenant,
      name: '桃花视频 App',
      url: 'https://peach.example/app',
      os: 'android',
      platforms: [5],
      sort: 4,
      enabled: false,
    },
  ]);
  await db
    .insert(statisticsSettings)
    .values({
      tenant,
      data: {
        events: {
          pageView: true,
          play: true,
          search: true,
          adImpression: true,
          adClick: true,
          tagClick: false,
        },
        sampleRate: 100,
        rawRetentionDays: 30,
        snippets: [
          {
            platform: 2,
            code: '<script>\n  var _hmt = _hmt || [];\n  (function () { /* third-party analytics */ })();\n</script>',
          },
        ],
      },
      version: 1,
      updatedAt: now,
    })
    .onConflictDoNothing();
  await db.transaction(async (tx) => {
    await bumpSiteVersion(tx, tenant, now);
    await setSiteBoundaries(tx, tenant, await noticeBoundaries(tx, tenant, now));
  });
}
