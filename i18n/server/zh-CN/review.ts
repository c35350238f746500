/** 审核流程（core/review.ts，影视、小说等共用）的接口消息：状态与动作的名称。 */
const review = {
  'review.status.pending': '待审核',
  'review.status.rejected': '已驳回',
  'review.status.online': '已上线',
  'review.status.offline': '已下线',
  'review.action.approve': '审核通过',
  'review.action.reject': '驳回',
  'review.action.offline': '下线',
  'review.action.online': '上线',
};
export default review;
