/** 通知版块（notices 模块）的接口消息。 */
const notices = {
  'notice.endBeforeStart': '结束时间必须晚于开始时间',
};
export default notices;
