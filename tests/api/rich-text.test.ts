// @vitest-environment jsdom
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { sanitizeRichText as clean, richTextToPlain, safeHref } from '../../common/rich-text';

/**
 * The pop-up sanitizer (server/core/rich-text.ts): known attacks, the whitelist, and a property check that a real
 * HTML parser (jsdom's, in this test only: the sanitizer itself has no DOM) finds nothing but the whitelist in any output.
 */

describe('the whitelist', () => {
  test('allowed tags come out in canonical form; synonyms are mapped', () => {
    expect(clean('<P>a<BR/>b</P>')).toBe('<p>a<br>b</p>');
    expect(clean('<b>x</b> <i>y</i> <strong>z</strong> <em>w</em>')).toBe(
      '<strong>x</strong> <em>y</em> <strong>z</strong> <em>w</em>',
    );
    expect(clean('<ol><li>1</li><li>2</li></ol><ul><li>a<li>b</ul>')).toBe(
      '<ol><li>1</li><li>2</li></ol><ul><li>a</li><li>b</li></ul>',
    );
  });

  test('links: http(s) only, with rel and target added; other attributes go', () => {
    expect(clean('<a href="https://ex.com/a?b=1&amp;c=2" onclick="x()" style="color:red" id=y>go</a>')).toBe(
      '<a href="https://ex.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow" target="_blank">go</a>',
    );
    expect(clean("<a href='http://ex.com'>go</a>")).toContain('href="http://ex.com"');
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\nscript:alert(1)',
      ' javascript:alert(1)',
      'jav&#x61;script:alert(1)',
      'jav&#97;script:alert(1)',
      '&#106;avascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '//evil.example',
      '/relative',
      'https:evil',
      'http://',
      'mailto:a@b.c',
    ]) {
      const out = clean(`<a href="${href}">t</a>`);
      expect(out, href).toBe('t');
    }
    expect(clean('<a>no href</a>')).toBe('no href');
  });

  test('everything else: tags dropped, text kept, script-like contents removed', () => {
    expect(clean('<img src=x onerror=alert(1)>')).toBe('');
    expect(clean('<div><span>text</span></div>')).toBe('text');
    expect(clean('<script>alert(1)</script>after')).toBe('after');
    expect(clean('<style>body{}</style>after')).toBe('after');
    expect(clean('<svg onload=alert(1)><script>x</script></svg>after')).toBe('after');
    expect(clean('<iframe src="https://e"></iframe>after')).toBe('after');
    expect(clean('<!-- <script>alert(1)</script> -->ok')).toBe('ok');
    expect(clean('<![CDATA[<script>alert(1)</script>]]>ok')).toContain('ok');
    expect(clean('<?xml version="1.0"?>ok')).toBe('ok');
  });

  test('text is escaped; entities decoded then escaped again', () => {
    // A quote in text needs no escape; the library leaves it as written.
    expect(clean('a < b && c > d "q"')).toBe('a &lt; b &amp;&amp; c &gt; d "q"');
    expect(clean('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(clean('&amp;lt;')).toBe('&amp;lt;');
    expect(clean('&nbsp;&copy;&#x4e2d;&#25991;&bogus;')).toBe('\u00a0©中文&amp;bogus;');
  });

  test('structure: balanced, no block inside inline, no link in a link, stray closings dropped', () => {
    expect(clean('<p>a<p>b')).toBe('<p>a</p><p>b</p>');
    expect(clean('<strong>bold<p>para</p>')).toBe('<strong>bold</strong><p>para</p>');
    expect(clean('</p></strong>text</li>')).toBe('text');
    expect(clean('<a href="https://a.x">1<a href="https://b.x">2</a>')).toBe(
      '<a href="https://a.x" rel="noopener noreferrer nofollow" target="_blank">1</a>' +
        '<a href="https://b.x" rel="noopener noreferrer nofollow" target="_blank">2</a>',
    );
    expect(clean('<em><strong>x</em>y</strong>')).toBe('<em><strong>x</strong></em>y');
  });

  test('tricky tokenization never yields a tag', () => {
    expect(clean('<<script>script>alert(1)<</script>/script>')).not.toMatch(/<script/i);
    expect(clean('<a href="https://x.y" title="a>b<script>">t</a>')).toBe(
      '<a href="https://x.y" rel="noopener noreferrer nofollow" target="_blank">t</a>',
    );
    expect(clean('<p title="unterminated>x')).toBe('');
    expect(clean('<scr<script>ipt>alert(1)</script>')).not.toMatch(/<script/i);
  });

  test('plain text of rich text; safeHref', () => {
    expect(richTextToPlain('<p>a &amp; b</p><ul><li>1</li></ul>')).toBe('a & b\n1');
    expect(richTextToPlain('<script>x</script>')).toBe('');
    expect(safeHref(' https://ex.com/path ')).toBe('https://ex.com/path');
    expect(safeHref('https://ex.com/a b')).toBeUndefined();
  });
});

describe('properties', () => {
  const html = fc.array(
    fc.oneof(
      fc.constantFrom(
        '<p>',
        '</p>',
        '<a href="https://ok.example/x">',
        '<a href="javascript:alert(1)">',
        '<a href=java&#x73;cript:x>',
        '</a>',
        '<b>',
        '</b>',
        '<li>',
        '<ul>',
        '</ul>',
        '<br/>',
        '<script>',
        '</script>',
        '<img src=x onerror=alert(1)>',
        '<svg onload=x>',
        '<!--',
        '-->',
        '<',
        '>',
        '"',
        "'",
        '&',
        '&lt;',
        '&#60;',
        '=',
        ' onclick=alert(1) ',
        '<div style="x">',
        '<iframe>',
      ),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 40 },
  );

  test('a browser-grade parser finds only whitelisted elements, no event handler, http(s) links only', () => {
    const allowed = new Set(['P', 'BR', 'STRONG', 'EM', 'A', 'UL', 'OL', 'LI']);
    fc.assert(
      fc.property(html, (parts) => {
        const out = clean(parts.join(''));
        const box = document.createElement('div');
        box.innerHTML = out;
        for (const el of box.querySelectorAll('*')) {
          if (!allowed.has(el.tagName)) return false;
          for (const attr of el.getAttributeNames()) {
            if (el.tagName !== 'A' || !['href', 'rel', 'target'].includes(attr)) return false;
          }
          if (el.tagName === 'A' && !/^https?:\/\//.test(el.getAttribute('href') ?? '')) return false;
        }
        return true;
      }),
      { numRuns: 1500 },
    );
  });

  test('sanitizing is idempotent, and the output is what a parser serializes back', () => {
    fc.assert(
      fc.property(html, (parts) => {
        const once = clean(parts.join(''));
        if (clean(once) !== once) return false;
        const box = document.createElement('div');
        box.innerHTML = once;
        return box.querySelectorAll('*').length === (once.match(/<(?!\/)/g) ?? []).length;
      }),
      { numRuns: 1000 },
    );
  });
});
