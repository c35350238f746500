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
  'tag.mergeSelf': '不能把标签合并到它自己',
  'source.inUse': '该视频源仍被 {count} 个播放条目使用，不能删除',
};
export default movies;
