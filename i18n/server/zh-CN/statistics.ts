/** API messages of the statistics module (ingestion, reports, demand gap), zh-CN. */
const statistics = {
  'stats.timeRange': '时间超出范围：最早 {days} 天前，最晚 1 天后',
  'stats.path': '应以 / 开头',
  'stats.toBeforeFrom': '结束日期不能早于开始日期',
  'stats.periodTooLong': '时间范围最多 {days} 天',
  'stats.aliasOnlyActress': '只有女优可以添加别名；影片和小说请选择标签',
  'stats.rollupStuck':
    '这些日期的统计汇总失败，重试也无法解决，其余日期已汇总：{days}（{error}）。请在「统计设置」查看',
  'field.timeZone': '应为时区名称，如 Asia/Shanghai',
};
export default statistics;
