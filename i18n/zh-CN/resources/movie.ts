import type en from '../../en-US/resources/movie';

/** 影视版块的资源文案。 */
const movie: typeof en = {
  'movie/review': {
    name: '审核列表',
    empty: '暂无待审核内容',
    emptyHint: '提交审核的内容会出现在这里。',
  },
};
export default movie;
