import type en from '../en-US/login';

/** 登录页文案（zh-CN）。登录页只加载此文件，不加载后台的完整语言包。 */
const login: typeof en = {
  title: '登录掌柜',
  subtitle: '内容站运营后台',
  username: '用户名',
  password: '密码',
  usernameRequired: '用户名不能为空',
  passwordRequired: '密码不能为空',
  remember: '记住密码',
  forgot: '忘记密码？',
  register: '注册账号',
  forgotHelp: '密码由管理员重置：请联系管理员为您重置。',
  registerHelp: '运营账号由管理员创建：请联系管理员为您开通。',
  close: '关闭',
  submit: '登录',
  submitting: '正在登录…',
  welcome: '欢迎使用',
  failed: '登录出错，请稍后重试',
  demo: '演示',
  demoHint: '演示环境：用户名 {username}，密码 {password}。所有数据都在您的浏览器中运行。',
  language: '语言',
  themeDark: '深色主题',
  themeLight: '浅色主题',
  loading: '加载中…',
  brand: '掌柜',
};
export default login;
