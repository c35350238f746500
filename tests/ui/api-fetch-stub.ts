import { vi } from 'vitest';

/** One request seen by the stubbed fetch. */
export interface SeenRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal | null;
}

type Answer = Response | Error | DOMException | ((seen: SeenRequest) => Response | Promise<Response>);

/** Replace global fetch; each call takes the next answer (the last one repeats). */
export function stubFetch(...answers: Answer[]): SeenRequest[] {
  const seen: SeenRequest[] = [];
  let i = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const request: SeenRequest = {
        url: String(url),
        method: init.method ?? 'GET',
        headers: { ...(init.headers as Record<string, string>) },
        body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
        signal: init.signal,
      };
      seen.push(request);
      const answer = answers[Math.min(i++, answers.length - 1)];
      if (typeof answer === 'function') return answer(request);
      if (answer instanceof Response) return answer.clone();
      throw answer;
    }),
  );
  return seen;
}

/** An HTTP 200 JSON envelope. */
export function envelope(
  data: unknown,
  code = 20000,
  msg = 'ok',
  extra: Record<string, unknown> = {},
): Response {
  return json({ code, msg, data, ...extra });
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Parse the query string of a seen URL. */
export function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url, 'http://x').searchParams);
}
