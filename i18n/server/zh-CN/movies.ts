/** 影视版块（movies 模块）的接口消息。 */
const movies = {
  'movie.status.pending': '待审核',
  'movie.status.rejected': '已驳回',
  'movie.status.online': '已上线',
  'movie.status.offline': '已下线',
  'movie.action.approve': '审核通过',
  'movie.action.reject': '驳回',
  'movie.action.offline': '下线',
  'movie.action.online': '上线',
  'movie.transition': '该内容当前为「{status}」，不能{action}',
  'movie.transitionBatch': '内容 #{id} 当前为「{status}」，不能{action}；本批未做任何修改',
  'column.hasItems': '该栏目下还有 {count} 个内容，请先把它们移到其他栏目',
  'column.hasChildren': '该栏目下还有 {count} 个子栏目，请先删除或移走它们',
  'column.cycle': '不能把栏目移到它自己或它的子栏目下',
  'column.sameTarget': '目标栏目不能是当前栏目',
  'tag.mergeSelf': '不能把标签合并到它自己',
  'source.inUse': '该视频源仍被 {count} 个播放条目使用，不能删除',
};
export default movies;
