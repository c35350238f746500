import englishMessages from 'ra-language-english';

/** react-admin's own messages, en-US: exactly ra-language-english's `ra` namespace. */
const ra = englishMessages.ra;
export default ra;
