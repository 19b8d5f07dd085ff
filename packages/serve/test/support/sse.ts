/** Reads an SSE body into `{ event, data }` records (and heartbeat comments as `event: ":"`). */
export async function readEvents(
  response: Response,
  until: (events: { event: string; data: string }[]) => boolean = () => false,
): Promise<{ event: string; data: string }[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: string }[] = [];
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith(":")) events.push({ event: ":", data: block.slice(1).trim() });
      else {
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
        const data = [...block.matchAll(/^data: (.*)$/gm)].map((match) => match[1]).join("\n");
        events.push({ event, data });
      }
      end = buffer.indexOf("\n\n");
    }
    if (until(events)) {
      await reader.cancel();
      break;
    }
  }
  return events;
}
