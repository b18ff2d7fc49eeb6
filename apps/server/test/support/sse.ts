/**
 * A test client for the REST event streams: opens `GET url` with headers over fetch (as a
 * header-capable EventSource does) and collects the parsed events as they arrive.
 */
export interface SseEvent {
  id?: string;
  event?: string;
  data: unknown;
}

export async function openStream(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const events: SseEvent[] = [];
  let comments = 0;
  const waiters: Array<() => void> = [];
  let ended = false;
  const done = (async () => {
    if (!response.ok || !response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: Partial<SseEvent> = {};
          let data: string | undefined;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments++;
            else if (line.startsWith('id: ')) event.id = line.slice(4);
            else if (line.startsWith('event: ')) event.event = line.slice(7);
            else if (line.startsWith('data: ')) data = line.slice(6);
          }
          if (data !== undefined) {
            events.push({ ...event, data: JSON.parse(data) });
            waiters.splice(0).forEach((wake) => wake());
          }
        }
      }
    } catch {
      // aborted
    } finally {
      ended = true;
      waiters.splice(0).forEach((wake) => wake());
    }
  })();

  /** Waits until `count` events (in total) have arrived, or fails after `timeoutMs`. */
  async function next(count: number, timeoutMs = 5000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (events.length < count) {
      if (ended) throw new Error(`stream ended after ${events.length} events, wanted ${count}`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`${events.length} events, wanted ${count}: ${JSON.stringify(events)}`);
      }
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, left);
      });
    }
    return events.slice(0, count);
  }

  return {
    response,
    events,
    next,
    comments: () => comments,
    ended: () => ended,
    done,
    close: async () => {
      controller.abort();
      await done;
    },
  };
}
