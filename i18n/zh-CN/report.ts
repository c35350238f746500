import type en from '../en-US/report';

/** 报表组件（src/components/Report*：时间段、对比、合计、图表）的文案。 */
const report: typeof en = {
  period: {
    label: '时间段',
    presets: '常用时间段',
    today: '今天',
    yesterday: '昨天',
    last7: '近 7 天',
    last30: '近 30 天',
    thisMonth: '本月',
    lastMonth: '上月',
    custom: '自定义',
    from: '开始日期',
    to: '结束日期',
    invalid: '请输入 %{min} 至 %{max} 之间的日期',
    order: '开始日期不能晚于结束日期',
    kept: '有日期未生效，报表仍为 %{from} 至 %{to}',
    timeZone: '按时区 %{timeZone} 划分日期',
    compare: '与上一周期对比',
    previous: '上一周期 %{from} 至 %{to}',
  },
  total: '合计',
  empty: '该时间段没有数据',
  emptyHint: '请换一个时间段，或检查站点是否在上报事件。',
  loading: '正在加载报表',
  chart: '%{figures}趋势图，%{from} 至 %{to}',
  columns: '显示列',
  delta: {
    up: '比上一周期增加 %{diff}（%{pct}），上一周期 %{previous}',
    down: '比上一周期减少 %{diff}（%{pct}），上一周期 %{previous}',
    flat: '与上一周期持平（%{previous}）',
    new: '比上一周期增加 %{diff}（上一周期为 0）',
    points: '%{value} 个百分点',
  },
  csv: {
    previous: '%{name}（上一周期）',
    change: '%{name}（变化）',
    done: '已导出 %{count} 行',
  },
};
export default report;
