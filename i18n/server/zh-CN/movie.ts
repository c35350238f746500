/** 影视版块（movie 模块）的接口消息。 */
const movie = {
  'movie.transition': '该内容当前为「{status}」，不能{action}',
  'movie.transitionBatch': '内容 #{id} 当前为「{status}」，不能{action}；本批未做任何修改',
  'tag.mergeSelf': '不能把标签合并到它自己',
  'movie.lineSources': '第 {line} 条线路的剧集须使用同一个视频源',
  'source.inUse': '该视频源仍被 {count} 个播放条目使用，不能删除',
  'movie.releaseFuture': '发行日期不能晚于今天',
};
export default movie;
