import englishMessages from 'ra-language-english';

/**
 * react-admin's own messages, en-US: ra-language-english's `ra` namespace, except the regex message, whose
 * `%{pattern}` prints a RegExp as "[object Object]" (forms give their own message saying what to type).
 */
const ra = {
  ...englishMessages.ra,
  validation: { ...englishMessages.ra.validation, regex: 'Wrong format' },
};
export default ra;
