/** API messages of the agents module, zh-CN. */
export default {
  'agent.rateCents': '最多两位小数',
  'agent.channelFixed': '渠道码创建后不能修改（历史统计按它归属）',
  'agent.shareOver': '分成比例不能超过 {max}%',
  'agent.parentSelf': '上级代理不能是自己',
  'agent.parentCycle': '上级代理不能是自己的下级',
  'agent.settledCannotDelete': '代理 {ids} 已有结算记录，不能删除，可以停用',
  'agent.hasChildren': '代理 {ids} 还有下级代理，请先调整下级',
  'agent.domainsMissing': '域名 {ids} 不存在',
  'agent.domainsTaken': '这些域名已绑定其他渠道：{hosts}',
  'agent.settleOpenDay': '只能结算已经结束的日期（今天是 {today}）',
  'agent.settleOverlap': '与已结算的 {from} 至 {to} 重叠',
  'agent.settlePending': '这些日期的统计还在汇总中：{days}，请一分钟后再试',
  'agent.settleNoStatistics': '该时段没有任何已汇总的统计数据，最早有统计数据的日期是 {first}',
  'agent.settleNoStatisticsYet': '还没有任何已汇总的统计数据，无可结算',
};
