/** 女优版块（actresses 模块）的接口消息。 */
const actresses = {
  'actress.hasMovies': '该女优关联了 {count} 部影片；确认删除会同时解除这些关联',
  'actress.hasMoviesBatch': '所选女优共关联了 {count} 部影片；确认删除会同时解除这些关联。本批未做任何修改',
  'actress.debutRange': '出道年份的起始不能晚于结束',
  'actress.birthdayFuture': '生日不能晚于今天',
  'actress.debutFuture': '出道年份不能晚于今年',
  'actress.debutBeforeBirth': '出道年份不能早于出生年份，请核对生日和出道年份',
};
export default actresses;
