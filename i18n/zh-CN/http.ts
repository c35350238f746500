import type en from '../en-US/http';

/** Messages of the HTTP client and session (src/api/), zh-CN. Same keys as en-US/http.ts. */
const http: typeof en = {
  error: '错误',
  network: '网络错误',
  unavailable: '数据库暂时不可用，请稍后重试',
  systemConfigFailed: '系统配置请求失败',
  confirmLogout: {
    title: '确认退出',
    content: '您已被登出，可以取消以留在此页面，或重新登录。',
    relogin: '重新登录',
    cancel: '取消',
  },
};
export default http;
