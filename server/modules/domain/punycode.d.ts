/** punycode (RFC 3492) ships no types; the two functions used here. */
declare module 'punycode/punycode.js' {
  const punycode: { toUnicode(domain: string): string; toASCII(domain: string): string };
  export default punycode;
}
